// Every shipped kernel file resolves its spec and compiles with NVRTC, its kernel found by name.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

using namespace kplay;

TEST(KernelFiles, EveryFileCompilesWithNvrtc) {
    Engine engine(EngineConfig{{}, test::kernels_dir() / "include", default_engine_config().cuda_include_dir});
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::kernels_dir())) {
        if (entry.path().extension() != ".cu" || entry.path().parent_path().filename() == "faults") continue;
        ++files;
        CompileFileRequest request;
        request.path = entry.path();
        request.want_ptx = true;  // PTX for the file's arch= (compute_90a for wgmma), else compute_90
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

// The fault corpus: each file states what kplay reports; the compile- and spec-level ones are checked
// here without a GPU, the rest must at least compile (they fault on the device, see gpu tests).
TEST(KernelFiles, FaultCorpusCompilesOrFailsAsItsHeaderSays) {
    Engine engine(EngineConfig{{}, test::kernels_dir() / "include", default_engine_config().cuda_include_dir});
    const auto files = test::kernel_files("faults");
    ASSERT_GE(files.size(), 14u);
    for (const auto& file : files) {
        SCOPED_TRACE(file.string());
        const test::FaultExpectation expectation = test::read_fault_expectation(file);
        ASSERT_FALSE(expectation.stage.empty()) << "every fault file has an '// expect:' line";
        CompileFileRequest request;
        request.path = file;
        request.arch = "compute_90";
        const CompileFileResult result = engine.compile_file(request);
        if (expectation.stage == "compile") {
            EXPECT_FALSE(result.compile.ok);
            ASSERT_FALSE(result.compile.diagnostics.empty());
            EXPECT_NE(result.compile.diagnostics[0].message.find(expectation.text), std::string::npos);
            EXPECT_GT(result.compile.diagnostics[0].column, 0);
        } else if (expectation.stage == "spec") {
            EXPECT_NE(result.spec_problem.find(expectation.text), std::string::npos) << result.spec_problem;
        } else {
            EXPECT_TRUE(result.compile.ok) << result.compile.log;
            EXPECT_TRUE(result.spec_problem.empty()) << result.spec_problem;
        }
    }
}
