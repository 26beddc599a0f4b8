// Every shipped kernel file resolves its spec and compiles with NVRTC, its kernel found by name.
#include <gtest/gtest.h>

#include "engine.hpp"
#include "test_support.hpp"

using namespace kplay;

TEST(KernelFiles, EveryFileCompilesWithNvrtc) {
    Engine engine(EngineConfig{{}, test::kernels_dir() / "include", default_engine_config().cuda_include_dir});
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::kernels_dir())) {
        if (entry.path().extension() != ".cu") continue;
        ++files;
        CompileFileRequest request;
        request.path = entry.path();
        request.arch = "compute_90";
        const CompileFileResult result = engine.compile_file(request);
        SCOPED_TRACE(entry.path().string());
        EXPECT_TRUE(result.input_error.empty()) << result.input_error;
        ASSERT_TRUE(result.spec.has_value()) << result.spec_problem;
        EXPECT_TRUE(result.compile.ok) << result.compile.log;
        EXPECT_EQ(result.compile.count(Severity::warning), 0) << result.compile.log;
        EXPECT_EQ(result.compile.lowered_names.count(result.spec->kernel), 1u);
        EXPECT_GT(result.spec->annotation_line, 0) << "every shipped kernel carries a kplay annotation";
    }
    EXPECT_GE(files, 5);
}
