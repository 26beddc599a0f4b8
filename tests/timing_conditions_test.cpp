// The timing conditions of a GPU run: NVML's throttle bits in words, when a run's clocks count as moved,
// and the line the CLI and the window show.
#include <gtest/gtest.h>

#include "values/timing_conditions.hpp"

using namespace kplay;

namespace {

ClockReading reading(double sm, double temperature, uint64_t reasons = 0) {
    return {ClockSample{sm, 3201, temperature, 140, reasons}, ""};
}

}  // namespace

TEST(TimingConditions, SlowdownReasonsAreNamedAndIdleIsNone) {
    EXPECT_TRUE(slowdown_reasons(0x1 | 0x2).empty());  // idle, applications clocks: no slowdown
    EXPECT_EQ(slowdown_reasons(0x4), std::vector<std::string>{"software power cap"});
    EXPECT_EQ(slowdown_reasons(0x20 | 0x40), (std::vector<std::string>{"software thermal slowdown", "hardware thermal slowdown"}));
}

TEST(TimingConditions, SteadyClocksAreSaidSo) {
    const TimingConditions c = timing_conditions(reading(1980, 34), reading(1980, 36));
    ASSERT_TRUE(c.recorded);
    EXPECT_FALSE(c.moved);
    EXPECT_EQ(conditions_text(c), "SM 1980 MHz, memory 3201 MHz, 34 -> 36 C, 140 W; steady");
}

TEST(TimingConditions, AClockThatMovesOrAThrottleIsFlagged) {
    // 1980 -> 1950 MHz is 1.5%: the same clock for timing; 1980 -> 1813 is not.
    EXPECT_FALSE(timing_conditions(reading(1980, 40), reading(1950, 41)).moved);
    const TimingConditions slower = timing_conditions(reading(1980, 27), reading(1813, 64));
    EXPECT_TRUE(slower.moved);
    EXPECT_NE(conditions_text(slower).find("SM 1980 -> 1813 MHz"), std::string::npos) << conditions_text(slower);
    EXPECT_NE(conditions_text(slower).find("MOVED during the repeats"), std::string::npos);
    const TimingConditions hot = timing_conditions(reading(1980, 80), reading(1980, 84, 0x20));
    EXPECT_TRUE(hot.moved);
    EXPECT_EQ(hot.throttled, std::vector<std::string>{"software thermal slowdown"});
    EXPECT_NE(conditions_text(hot).find("THROTTLED (software thermal slowdown)"), std::string::npos) << conditions_text(hot);
}

TEST(TimingConditions, WithoutAReadingItSaysWhy) {
    const TimingConditions c = timing_conditions({std::nullopt, "NVML (libnvidia-ml.so.1) not found"}, reading(1980, 30));
    EXPECT_FALSE(c.recorded);
    EXPECT_FALSE(c.moved);
    EXPECT_EQ(conditions_text(c), "not recorded: NVML (libnvidia-ml.so.1) not found");
}
