// Launch validation messages, the auto grid and coverage numbers.
#include <gtest/gtest.h>

#include "values/launch_config.hpp"

using namespace kplay;

namespace {
DeviceLimits h200_like() {
    DeviceLimits limits;
    limits.max_smem_per_block_optin = 232448;
    return limits;
}
bool any_contains(const std::vector<std::string>& list, const std::string& text) {
    for (const auto& item : list)
        if (item.find(text) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST(LaunchConfig, AutoGridCoversTheExtent) {
    const Dim3 grid = auto_grid({1000, 999, 1}, {16, 16, 1});
    EXPECT_EQ(grid.x, 63);
    EXPECT_EQ(grid.y, 63);
    EXPECT_EQ(grid.z, 1);
}

TEST(LaunchConfig, ValidConfigHasNoProblems) {
    LaunchConfig launch{{63, 63, 1}, {16, 16, 1}, 2048, true};
    EXPECT_TRUE(validate_launch(launch, h200_like(), nullptr).empty());
}

TEST(LaunchConfig, NamesEachBrokenLimitAndByHowMuch) {
    LaunchConfig too_many{{1, 1, 1}, {32, 64, 1}, 0, false};
    auto problems = validate_launch(too_many, h200_like(), nullptr);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("2048 threads"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("at most 1024"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("2x the limit"), std::string::npos) << problems[0];

    LaunchConfig bad_dims{{1, 70000, 1}, {1, 1, 65}, 0, false};
    problems = validate_launch(bad_dims, h200_like(), nullptr);
    EXPECT_TRUE(any_contains(problems, "block.z is 65; the device allows at most 64 (over by 1)"));
    EXPECT_TRUE(any_contains(problems, "grid.y is 70000; the device allows at most 65535"));

    LaunchConfig zero{{0, 1, 1}, {0, 1, 1}, -1, false};
    problems = validate_launch(zero, h200_like(), nullptr);
    EXPECT_TRUE(any_contains(problems, "block.x is 0"));
    EXPECT_TRUE(any_contains(problems, "grid.x is 0"));
    EXPECT_TRUE(any_contains(problems, "negative"));
}

TEST(LaunchConfig, SharedMemoryCountsStaticPlusDynamic) {
    FunctionAttributes function;
    function.static_smem_bytes = 32768;
    function.max_threads_per_block = 1024;
    LaunchConfig launch{{1, 1, 1}, {256, 1, 1}, 200000, false};
    const auto problems = validate_launch(launch, h200_like(), &function);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("232768 bytes (32768 static + 200000 dynamic)"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("over by 320 bytes"), std::string::npos) << problems[0];
}

TEST(LaunchConfig, RegisterLimitedKernel) {
    FunctionAttributes function;
    function.registers_per_thread = 128;
    function.max_threads_per_block = 512;
    LaunchConfig launch{{1, 1, 1}, {1024, 1, 1}, 0, false};
    const auto problems = validate_launch(launch, h200_like(), &function);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("128 registers per thread, so at most 512 threads"), std::string::npos) << problems[0];
}

TEST(LaunchConfig, CoverageCountsIdleAndUncoveredElements) {
    LaunchConfig launch{{4, 1, 1}, {256, 1, 1}, 0, true};
    Coverage coverage = compute_coverage(launch, {1000, 1, 1}, 1);
    EXPECT_EQ(coverage.threads, 1024);
    EXPECT_EQ(coverage.idle_threads, 24);
    EXPECT_EQ(coverage.uncovered, 0);

    LaunchConfig small{{2, 2, 1}, {16, 16, 1}, 0, false};
    coverage = compute_coverage(small, {100, 40, 1}, 2);
    EXPECT_EQ(coverage.elements, 4000);
    EXPECT_EQ(coverage.uncovered, 4000 - 32 * 32);
    EXPECT_NE(coverage.note().find("no thread of their own"), std::string::npos);
}
