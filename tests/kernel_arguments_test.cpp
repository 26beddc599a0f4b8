// What a declaration can pass a kernel beyond buffers and integer sizes, end to end on the emulated CPU
// device: float hyperparameters (AdamW), a float computed from a size (attention's 1/sqrt(d)), a
// running maximum that starts at -inf, a struct of buffers and sizes (CSR SpMV), and a pointer with an
// offset beside a null one (a scan); and the report of a run whose arguments cannot be bound.
#include <gtest/gtest.h>

#include "kernel_arguments_cases.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

class KernelArguments : public ::testing::TestWithParam<std::string> {
protected:
    RunReport run(const std::filesystem::path& file) {
        RunRequest request;
        request.kernel_path = file;
        request.emulate = true;
        request.emulation_timeout_s = 60;
        request.reference_timeout_s = 60;
        return engine_.run(request);
    }
    // The file of tests/data/args with one piece of its text replaced.
    RunReport run_edited(const std::string& file, const std::string& from, const std::string& to) {
        std::string source = test::read_file(test::data_dir() / "args" / file);
        source.replace(source.find(from), from.size(), to);
        return run(dir_.write(file, source));
    }
    test::TempDir dir_;
    Engine engine_{[this] {
        EngineConfig config = default_engine_config();
        config.cache_dir = dir_.path() / "cache";
        return config;
    }()};
};

TEST_P(KernelArguments, RunsAndBindsAsDeclared) {
    const std::string file = GetParam();
    test::expect_argument_case(file, run(test::data_dir() / "args" / file));
}

INSTANTIATE_TEST_SUITE_P(Files, KernelArguments, ::testing::ValuesIn(test::argument_case_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param.substr(0, info.param.find('.')); });

TEST_F(KernelArguments, AnOffsetPastTheBufferIsAMessageNamingTheArgument) {
    // x holds 2*n elements, so x+n+1 is inside it (the kernel's read of n from there is the reference's
    // and the launch's fault); x+2*n+1 is past its end, which the binding refuses.
    const RunReport report = run_edited("scan_offsets.cu", "args=x+n,y,null,n", "args=x+2*n+1,y,null,n");
    ASSERT_FALSE(report.ok());
    EXPECT_NE(report.error.find("argument 1 (in) of block_scan is 'x+2*n+1'"), std::string::npos) << report.error;
    EXPECT_NE(report.error.find("the offset must be from 0 to its length"), std::string::npos) << report.error;
    // The report says at which sizes and launch it failed.
    EXPECT_FALSE(report.sizes.empty());
    EXPECT_GT(report.launch.grid.x, 1);
}

TEST_F(KernelArguments, AConstantArrayOfAnotherSizeIsAMessage) {
    const RunReport report = run_edited("constant_conv.cu", "filter f32[2*4+1]", "filter f32[7]");
    ASSERT_FALSE(report.ok());
    EXPECT_NE(report.error.find("kplay-constant filter: the kernel's __constant__ array 'filter' is 36 bytes, but the declaration's length gives 28"),
              std::string::npos)
        << report.error;
}

TEST_F(KernelArguments, AConstantTheFileDoesNotDeclareIsAMessage) {
    const RunReport report = run_edited("constant_conv.cu", "kplay-constant: filter", "kplay-constant: taps");
    ASSERT_FALSE(report.ok());
    EXPECT_NE(report.error.find("kplay-constant 'taps': the file declares no `__constant__` array named 'taps'"), std::string::npos) << report.error;
}

}  // namespace
}  // namespace kplay
