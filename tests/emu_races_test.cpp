// Races on the emulated device (kernels_src/races/): each is found at every thread order, with the same
// example, and the verdict is the race; the fixed kernel reports none. The ladders' correct kernels
// report none either: task_library_emulated_test runs them tracked, and a race would fail their check.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

Engine& engine() { return test::scratch_engine(); }

RunReport run_tracked(const std::filesystem::path& path, ThreadOrder order) {
    RunRequest request;
    request.kernel_path = path;
    request.emulate = true;
    request.thread_order = order;
    request.order_seed = 7;
    request.emulation_timeout_s = 120;
    request.check_test_sizes = false;
    return engine().run(request);
}

RunReport run_lesson(const std::string& lesson, ThreadOrder order) { return run_tracked(test::kernels_dir() / "races" / lesson, order); }

struct RaceCase {
    const char* file;
    RaceSpace space;
    const char* array;
    int same_warp;  // 1 or 0; -1 where it depends on the order (below)
    bool same_block;
    RaceKind kind;
};

class EmulatedRaces : public ::testing::TestWithParam<RaceCase> {};

TEST_P(EmulatedRaces, FoundAtEveryOrderWithTheSameExample) {
    const RaceCase& expected = GetParam();
    std::string first_description;
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random}) {
        SCOPED_TRACE(thread_order_name(order));
        const RunReport report = run_lesson(expected.file, order);
        ASSERT_TRUE(report.ok()) << report.error;
        EXPECT_TRUE(report.tracked);
        ASSERT_FALSE(report.races.empty()) << report.check.summary;
        const Race& race = report.races.front();
        EXPECT_EQ(race.space, expected.space);
        EXPECT_EQ(race.array, expected.array);
        if (expected.same_warp >= 0) {
            EXPECT_EQ(race.same_warp, expected.same_warp == 1);
        }
        EXPECT_EQ(race.same_block, expected.same_block);
        EXPECT_EQ(race_kind(race), expected.kind) << race_kind_name(race);
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
    ::testing::Values(RaceCase{"01_reduction_missing_barrier.cu", RaceSpace::shared, "partial", false, true, RaceKind::read_write},
                      RaceCase{"02_warp_reduce_without_syncwarp.cu", RaceSpace::shared, "partial", true, true, RaceKind::warp_local},
                      RaceCase{"03_scan_missing_barrier.cu", RaceSpace::shared, "xy", false, true, RaceKind::read_write},
                      RaceCase{"04_histogram_without_atomics.cu", RaceSpace::global, "bins", false, true, RaceKind::read_write},
                      RaceCase{"06_warp_exchange_without_syncwarp.cu", RaceSpace::shared, "slot", true, true, RaceKind::warp_local},
                      // Whether all of a reset's conflicts with the atomics were in one warp depends on the order: a cell
                      // keeps one write stamp, so a plain write after atomics meets the last of them only.
                      RaceCase{"08_counter_reset_against_atomics.cu", RaceSpace::shared, "count", -1, true, RaceKind::plain_atomic},
                      RaceCase{"09_block_handoff_without_fence.cu", RaceSpace::global, "running", false, false, RaceKind::between_blocks}),
    [](const ::testing::TestParamInfo<RaceCase>& info) { return test::test_name_of(info.param.file); });

TEST(EmulatedRaces, TheMissingBarrierIsBetweenTheReadAndTheWriteOfOneLine) {
    const RunReport report = run_lesson("01_reduction_missing_barrier.cu", ThreadOrder::reverse);
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

// The fixed lessons, and kernels that use shared memory of every kind of type correctly, report no race
// at any thread order: a __syncwarp, a fence before the flag, a barrier between.
class RaceFree : public ::testing::TestWithParam<std::string> {};

TEST_P(RaceFree, AtEveryOrder) {
    // "data/races/x.cu": a kernel of tests/data; "races/x.cu": a lesson of kernels_src.
    const std::string& name = GetParam();
    const std::filesystem::path path = name.rfind("data/", 0) == 0 ? test::data_dir() / name.substr(5) : test::kernels_dir() / name;
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random}) {
        SCOPED_TRACE(thread_order_name(order));
        const RunReport report = run_tracked(path, order);
        ASSERT_TRUE(report.ok()) << report.error;
        EXPECT_TRUE(report.tracked);
        EXPECT_TRUE(report.races.empty()) << describe_race(report.races.front());
        EXPECT_TRUE(report.check.passed) << report.check.summary;
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, RaceFree,
                         ::testing::Values("races/05_warp_reduce_with_syncwarp.cu", "races/07_warp_exchange_with_syncwarp.cu",
                                           "races/10_block_handoff_with_fence.cu", "data/races/shared_types.cu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return test::test_name_of(info.param); });

// A race whose reads went wrong and made a thread read past its tile: the fault is reported, and the race
// before it first, as the likely cause.
TEST(EmulatedRaces, TheRaceBehindAFaultIsNamedFirst) {
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::random}) {
        SCOPED_TRACE(thread_order_name(order));
        const RunReport report = run_lesson("11_race_then_fault.cu", order);
        ASSERT_FALSE(report.ok());
        ASSERT_FALSE(report.races.empty()) << report.error;
        const Race& race = report.races.front();
        EXPECT_EQ(race.array, "dynamic shared memory");
        EXPECT_EQ(race_kind(race), RaceKind::read_write);
        EXPECT_EQ(std::min(race.first.line, race.second.line), 25);  // the read of the bound
        EXPECT_EQ(std::max(race.first.line, race.second.line), 26);  // the tile's load over it
        EXPECT_EQ(report.error.rfind("A race came first, the likely cause: ", 0), 0u) << report.error;
        EXPECT_NE(report.error.find(". Then thread ("), std::string::npos) << report.error;
        EXPECT_NE(report.error.find("past the end of 'dynamic shared memory'"), std::string::npos) << report.error;
    }
}

// Each access's own line, whichever line comes after it: a plain store to a shared counter and another
// thread's read of it, and a softmax's read of the row maximum against warp 0's write of its sum.
TEST(EmulatedRaces, RacesAreReportedAtTheExactLinesOfTheirAccesses) {
    struct Expected {
        const char* file;
        int read_line, write_line;
    };
    for (const Expected& expected : {Expected{"races/counter_lines.cu", 14, 13}, Expected{"races/softmax_lines.cu", 35, 40}}) {
        SCOPED_TRACE(expected.file);
        for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse}) {
            const RunReport report = run_tracked(test::data_dir() / expected.file, order);
            ASSERT_TRUE(report.ok()) << report.error;
            ASSERT_EQ(report.races.size(), 1u) << report.check.summary;
            const Race& race = report.races.front();
            const RaceAccess& read = race.first.write ? race.second : race.first;
            const RaceAccess& write = race.first.write ? race.first : race.second;
            EXPECT_FALSE(read.write);
            EXPECT_TRUE(write.write);
            EXPECT_EQ(read.line, expected.read_line);
            EXPECT_EQ(write.line, expected.write_line);
        }
    }
}

// Kinds in words: the summary and the description say which kind of race it is.
TEST(EmulatedRaces, EachKindIsNamedInTheVerdict) {
    const RunReport plain_atomic = run_lesson("08_counter_reset_against_atomics.cu", ThreadOrder::forward);
    ASSERT_FALSE(plain_atomic.races.empty());
    EXPECT_NE(plain_atomic.check.summary.find("(a plain access against atomic ones)"), std::string::npos) << plain_atomic.check.summary;
    EXPECT_NE(describe_race(plain_atomic.races.front()).find("one plainly and one atomically"), std::string::npos);
    const RunReport warp = run_lesson("06_warp_exchange_without_syncwarp.cu", ThreadOrder::forward);
    ASSERT_FALSE(warp.races.empty());
    EXPECT_NE(warp.check.summary.find("(lanes of one warp, no __syncwarp())"), std::string::npos) << warp.check.summary;
    const RunReport blocks = run_lesson("09_block_handoff_without_fence.cu", ThreadOrder::forward);
    ASSERT_FALSE(blocks.races.empty());
    EXPECT_NE(blocks.check.summary.find("(different blocks, no fence-and-flag handoff)"), std::string::npos) << blocks.check.summary;
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
