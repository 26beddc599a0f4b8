// Races on the emulated device (kernels_src/races/): each is found at every thread order, with the same
// example, and the verdict is the race; the fixed kernel reports none. The ladders' correct kernels
// report none either: task_library_emulated_test runs them tracked, and a race would fail their check.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

Engine& engine() { return test::scratch_engine(); }

RunReport run_tracked(const std::string& file, ThreadOrder order) {
    RunRequest request;
    request.kernel_path = test::kernels_dir() / "races" / file;
    request.emulate = true;
    request.thread_order = order;
    request.order_seed = 7;
    request.emulation_timeout_s = 120;
    request.check_test_sizes = false;
    return engine().run(request);
}

struct RaceCase {
    const char* file;
    RaceSpace space;
    const char* array;
    bool same_warp;
    bool same_block;
};

class EmulatedRaces : public ::testing::TestWithParam<RaceCase> {};

TEST_P(EmulatedRaces, FoundAtEveryOrderWithTheSameExample) {
    const RaceCase& expected = GetParam();
    std::string first_description;
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random}) {
        SCOPED_TRACE(thread_order_name(order));
        const RunReport report = run_tracked(expected.file, order);
        ASSERT_TRUE(report.ok()) << report.error;
        EXPECT_TRUE(report.tracked);
        ASSERT_FALSE(report.races.empty()) << report.check.summary;
        const Race& race = report.races.front();
        EXPECT_EQ(race.space, expected.space);
        EXPECT_EQ(race.array, expected.array);
        EXPECT_EQ(race.same_warp, expected.same_warp);
        EXPECT_EQ(race.same_block, expected.same_block);
        EXPECT_GT(race.first.line, 0);
        EXPECT_GT(race.second.line, 0);
        EXPECT_NE(race.first.file.find(expected.file), std::string::npos) << race.first.file;
        EXPECT_TRUE(race.first.write || race.second.write);
        // The verdict is the race, whether or not the numbers happened to come out right.
        EXPECT_FALSE(report.check.passed);
        EXPECT_EQ(report.check.summary.rfind(std::string("RACE on ") + (expected.space == RaceSpace::shared ? "shared array '" : "buffer '") +
                                                 expected.array + "'", 0),
                  0u)
            << report.check.summary;
        const std::string description = describe_race(race);
        if (first_description.empty()) first_description = description;
        // Counts differ between orders (which conflicts the shadow saw first); the example does not.
        const auto without_count = [](const std::string& text) { return text.substr(0, text.find(" (")); };
        EXPECT_EQ(without_count(description), without_count(first_description));
    }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, EmulatedRaces,
    ::testing::Values(RaceCase{"01_reduction_missing_barrier.cu", RaceSpace::shared, "partial", false, true},
                      RaceCase{"02_warp_reduce_without_syncwarp.cu", RaceSpace::shared, "partial", true, true},
                      RaceCase{"03_scan_missing_barrier.cu", RaceSpace::shared, "xy", false, true},
                      RaceCase{"04_histogram_without_atomics.cu", RaceSpace::global, "bins", false, true}),
    [](const ::testing::TestParamInfo<RaceCase>& info) { return test::test_name_of(info.param.file); });

TEST(EmulatedRaces, TheMissingBarrierIsBetweenTheReadAndTheWriteOfOneLine) {
    const RunReport report = run_tracked("01_reduction_missing_barrier.cu", ThreadOrder::reverse);
    ASSERT_FALSE(report.races.empty());
    const Race& race = report.races.front();
    // partial[t] += partial[t + s]: thread 0 reads element 2 at s = 2, thread 2 wrote it at s = 1.
    EXPECT_EQ(race.element, 2u);
    EXPECT_EQ(race.first.thread.x, 0);
    EXPECT_EQ(race.second.thread.x, 2);
    EXPECT_FALSE(race.first.write);
    EXPECT_TRUE(race.second.write);
    EXPECT_EQ(race.first.line, race.second.line);
    EXPECT_EQ(race.first.line, 30);
}

TEST(EmulatedRaces, TheWarpReductionDoneRightReportsNone) {
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random}) {
        const RunReport report = run_tracked("05_warp_reduce_with_syncwarp.cu", order);
        ASSERT_TRUE(report.ok()) << report.error;
        EXPECT_TRUE(report.races.empty()) << describe_race(report.races.front());
        EXPECT_TRUE(report.check.passed) << report.check.summary;
    }
}

TEST(EmulatedRaces, NoTrackRunsWithoutLookingForThem) {
    RunRequest request;
    request.kernel_path = test::kernels_dir() / "races" / "01_reduction_missing_barrier.cu";
    request.emulate = true;
    request.thread_order = ThreadOrder::reverse;  // an order at which the sum comes out right
    request.check_test_sizes = false;
    request.emulation_track = false;
    const RunReport report = engine().run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_FALSE(report.tracked);
    EXPECT_TRUE(report.races.empty());
    EXPECT_TRUE(report.check.passed) << report.check.summary;
}

}  // namespace
}  // namespace kplay
