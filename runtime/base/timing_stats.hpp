// Summary statistics of repeated timings.
#pragma once

#include <vector>

namespace kplay {

struct TimingStats {
    int count = 0;
    double median = 0, min = 0, max = 0, mean = 0, stddev = 0;  // milliseconds
};

TimingStats summarize_timings(std::vector<double> samples_ms);

}  // namespace kplay
