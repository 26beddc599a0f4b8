// The edit->result clock: timed from the save to the frame that shows its answer (the checked result of
// a progressive run), once; opening a file is timed but is no edit; runs the user asked for are not timed.
#include "session/latency_clock.hpp"

#include <gtest/gtest.h>

using namespace kplay;
using namespace std::chrono_literals;

TEST(LatencyClock, AnEditIsTimedToTheFrameThatShowsItsAnswer) {
    LatencyClock clock;
    const Clock::time_point saved = Clock::now();
    clock.edited(saved, false);
    clock.sent(true);
    EXPECT_FALSE(clock.presented(false, saved + 50ms)) << "no answer yet";
    clock.answered();
    const auto ms = clock.presented(false, saved + 120ms);
    ASSERT_TRUE(ms);
    EXPECT_DOUBLE_EQ(*ms, 120);
    EXPECT_EQ(clock.edits_ms(), std::vector<double>{120});
    EXPECT_FALSE(clock.showing_opened_result());
    EXPECT_FALSE(clock.presented(false, saved + 200ms)) << "measured once";
    EXPECT_EQ(clock.edits_ms().size(), 1u);
}

TEST(LatencyClock, AnEditsTimeIsSplitIntoHandedOverAnsweredAndOnScreen) {
    LatencyClock clock;
    const Clock::time_point saved = Clock::now();
    clock.edited(saved, false);
    clock.sent(true, saved + 2ms);
    clock.answered(saved + 45ms);
    ASSERT_TRUE(clock.presented(false, saved + 61ms));
    ASSERT_EQ(clock.edit_stages().size(), 1u);
    EXPECT_DOUBLE_EQ(clock.edit_stages()[0].sent_ms, 2);
    EXPECT_DOUBLE_EQ(clock.edit_stages()[0].answered_ms, 45);
    EXPECT_DOUBLE_EQ(clock.edit_stages()[0].presented_ms, 61);
}

TEST(LatencyClock, OpeningIsTimedButIsNoEdit) {
    LatencyClock clock;
    const Clock::time_point opened = Clock::now();
    clock.edited(opened, true);
    clock.sent(true);
    clock.answered();
    EXPECT_FALSE(clock.presented(false, opened + 700ms)) << "nothing for the history";
    ASSERT_TRUE(clock.opened_to_result_ms());
    EXPECT_DOUBLE_EQ(*clock.opened_to_result_ms(), 700);
    EXPECT_TRUE(clock.showing_opened_result());
    EXPECT_TRUE(clock.edits_ms().empty());

    clock.edited(opened + 1s, false);
    clock.sent(true);
    clock.answered();
    EXPECT_TRUE(clock.presented(false, opened + 1100ms));
    EXPECT_FALSE(clock.showing_opened_result());
    EXPECT_DOUBLE_EQ(*clock.opened_to_result_ms(), 700);
}

TEST(LatencyClock, RunsTheUserAskedForAreNotTimed) {
    LatencyClock clock;
    const Clock::time_point saved = Clock::now();
    clock.edited(saved, false);
    clock.sent(false);  // F5
    clock.answered();
    EXPECT_FALSE(clock.presented(false, saved + 10ms));

    clock.edited(saved, false);
    clock.untimed();  // a setting changed before the run went
    clock.sent(true);
    clock.answered();
    EXPECT_FALSE(clock.presented(false, saved + 10ms));
    EXPECT_TRUE(clock.edits_ms().empty());
}

TEST(LatencyClock, ACheckedResultStopsTheClockForItsRunsEntryLater) {
    LatencyClock clock;
    const Clock::time_point saved = Clock::now();
    clock.edited(saved, false);
    clock.sent(true);
    clock.answered();  // the checked result
    EXPECT_FALSE(clock.presented(true, saved + 30ms)) << "its run is not in the history yet";
    EXPECT_EQ(clock.edits_ms(), std::vector<double>{30});
    // The final answer: already timed, so nothing more is measured.
    EXPECT_FALSE(clock.presented(false, saved + 300ms));
    const auto ms = clock.take_partial();
    ASSERT_TRUE(ms);
    EXPECT_DOUBLE_EQ(*ms, 30);
    EXPECT_FALSE(clock.take_partial());
    EXPECT_EQ(clock.edits_ms().size(), 1u);
}
