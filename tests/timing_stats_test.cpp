// Median, extremes and spread of timing samples.
#include <gtest/gtest.h>

#include "base/timing_stats.hpp"

TEST(TimingStats, SummarisesOddAndEvenCounts) {
    auto stats = kplay::summarize_timings({5, 1, 3});
    EXPECT_EQ(stats.count, 3);
    EXPECT_DOUBLE_EQ(stats.median, 3);
    EXPECT_DOUBLE_EQ(stats.min, 1);
    EXPECT_DOUBLE_EQ(stats.max, 5);
    EXPECT_DOUBLE_EQ(stats.mean, 3);
    EXPECT_DOUBLE_EQ(stats.stddev, 2);
    EXPECT_DOUBLE_EQ(kplay::summarize_timings({4, 1, 2, 3}).median, 2.5);
    EXPECT_EQ(kplay::summarize_timings({}).count, 0);
}
