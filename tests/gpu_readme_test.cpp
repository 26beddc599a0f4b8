// README's examples on the GPU: every ```cuda block that CI runs on the emulated device
// (readme_examples_test.cpp) also runs as printed on device 0 and passes at every size.
#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace kplay;

TEST(ReadmeExamplesGpu, EveryExampleRunsAsPrintedOnTheGpu) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const std::vector<test::ReadmeExample> examples = test::readme_examples();
    ASSERT_FALSE(examples.empty());
    test::TempDir dir;
    for (const auto& example : examples) {
        SCOPED_TRACE(example.name);
        const auto file = dir.write(example.name, example.source);
        const test::CliRun run = test::run_cli("run " + file.string() + " --device 0", dir.path() / "cache", {.gpu = true});
        EXPECT_EQ(run.code, 0) << run.output;
        EXPECT_NE(run.output.find("check      PASS"), std::string::npos) << run.output;
        EXPECT_EQ(run.output.find("FAIL"), std::string::npos) << run.output;
    }
}
