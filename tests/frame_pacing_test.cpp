// The window loop's waits: seconds, bounded, whatever the clocks' units.
#include "frame_pacing.hpp"

#include <gtest/gtest.h>

using kplay::window::FramePacing;
using namespace std::chrono_literals;

TEST(FramePacing, ABusyWindowWaitsAtMostAThirtiethOfASecond) {
    const auto now = std::chrono::steady_clock::now();
    EXPECT_NEAR(FramePacing::wait_s(false, true, now, now), 1.0 / 30, 1e-9) << "a frame just drawn: the next is a thirtieth away";
    EXPECT_NEAR(FramePacing::wait_s(false, true, now - 10ms, now), 1.0 / 30 - 0.010, 1e-6);
    EXPECT_DOUBLE_EQ(FramePacing::wait_s(false, true, now - 1s, now), 0.001) << "overdue: look again at once";
    EXPECT_LE(FramePacing::wait_s(false, true, now + 5s, now), 1.0 / 30) << "a clock that went back never makes it longer";
}

TEST(FramePacing, IdleAndSweepingWaitsAreTheirOwn) {
    const auto now = std::chrono::steady_clock::now();
    EXPECT_DOUBLE_EQ(FramePacing::wait_s(false, false, now, now), 0.1);
    EXPECT_DOUBLE_EQ(FramePacing::wait_s(true, true, now, now), 0.002);
}

TEST(FramePacing, AFrameIsDueAThirtiethAfterTheLast) {
    const auto now = std::chrono::steady_clock::now();
    EXPECT_FALSE(FramePacing::frame_due(now - 20ms, now));
    EXPECT_TRUE(FramePacing::frame_due(now - 34ms, now));
}
