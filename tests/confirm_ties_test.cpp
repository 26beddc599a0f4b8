// The confirm round's ties: which points the winner cannot be told apart from.
#include <gtest/gtest.h>

#include "sweep/confirm_ties.hpp"

using namespace kplay;

namespace {

PointResult confirmed(const std::string& label, double ms, double spread) {
    PointResult r;
    r.label = label;
    r.state = PointState::passed;
    r.median_ms = r.confirmed_ms = ms;
    r.spread = spread;
    return r;
}

TimingConditions clocks(double before_mhz, double after_mhz, uint64_t throttle_bits = 0) {
    ClockReading before, after;
    before.sample = ClockSample{before_mhz, 3201, 40, 120, throttle_bits};
    after.sample = ClockSample{after_mhz, 3201, 41, 125, throttle_bits};
    return timing_conditions(before, after);
}

}  // namespace

// Medians closer than either point's own rounds spread tie; a gap wider than both does not.
TEST(ConfirmTies, CloserThanTheRoundsSpreadIsATie) {
    const std::vector<PointResult> results{confirmed("a", 1.00, 0.01), confirmed("b", 1.015, 0.02), confirmed("c", 1.10, 0.02),
                                           confirmed("d", 1.005, 0.001)};
    EXPECT_EQ(tied_with(results, 0, 0.05), (std::vector<size_t>{3, 1})) << "fastest first; c is 10% slower";
    std::vector<PointResult> steady = results;
    steady[1].spread = steady[0].spread = 0.001;
    steady[3].spread = 0.001;
    EXPECT_TRUE(tied_with(steady, 0, 0.05).empty()) << "1.5% and 0.5% apart with rounds within 0.1%: told apart";
}

// Unconfirmed, wrong or failed points never tie, nor does a best that was not confirmed.
TEST(ConfirmTies, OnlyConfirmedCorrectPointsTie) {
    std::vector<PointResult> results{confirmed("a", 1.0, 0.05), confirmed("b", 1.01, 0.0), confirmed("c", 1.01, 0.0)};
    results[1].confirmed_ms = 0;  // not in the confirm round
    results[2].state = PointState::wrong;
    EXPECT_TRUE(tied_with(results, 0, 0.05).empty());
    results[0].confirmed_ms = 0;
    EXPECT_TRUE(tied_with(results, 0, 0.05).empty());
    EXPECT_TRUE(tied_with(results, 7, 0.05).empty());
}

// A clock that moved during a confirm run widens the margin by as much, and marks the point unsteady,
// which makes the unsteady margin the least gap that counts; steady clocks change nothing.
TEST(ConfirmTies, ClocksThatMovedWidenTheMargin) {
    std::vector<PointResult> results{confirmed("a", 1.00, 0.002), confirmed("b", 1.03, 0.002)};
    note_confirm_conditions(results[0], clocks(1980, 1980));
    EXPECT_EQ(results[0].clock_change, 0);
    EXPECT_TRUE(results[0].unsteady.empty());
    EXPECT_TRUE(tied_with(results, 0, 0.05).empty()) << "3% apart, steady, rounds within 0.2%";

    note_confirm_conditions(results[1], clocks(1980, 1930));  // 2.5%: moved
    EXPECT_NEAR(results[1].clock_change, 50.0 / 1980, 1e-12);
    EXPECT_NE(results[1].unsteady.find("MOVED"), std::string::npos) << results[1].unsteady;
    EXPECT_EQ(tied_with(results, 0, 0.05), std::vector<size_t>{1}) << "3% apart is inside the unsteady margin";
    EXPECT_TRUE(tied_with(results, 0, 0.02).empty()) << "with a 2% unsteady margin, the 2.5% clock change is the margin";

    PointResult throttled = confirmed("c", 1.0, 0.0);
    note_confirm_conditions(throttled, clocks(1980, 1980, 0x20));  // a thermal slowdown reason, clocks unchanged
    EXPECT_NE(throttled.unsteady.find("THROTTLED"), std::string::npos) << throttled.unsteady;
    const std::string first = throttled.unsteady;
    note_confirm_conditions(throttled, clocks(1980, 1900));
    EXPECT_EQ(throttled.unsteady, first) << "the first unsteady run's words are kept";
    EXPECT_NEAR(throttled.clock_change, 80.0 / 1980, 1e-12) << "the largest change";

    PointResult unrecorded = confirmed("d", 1.0, 0.0);
    note_confirm_conditions(unrecorded, TimingConditions{});
    EXPECT_EQ(unrecorded.clock_change, 0);
    EXPECT_TRUE(unrecorded.unsteady.empty()) << "no reading is not a moved clock";
}
