// Median, extremes, mean and sample standard deviation.
#include "base/timing_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace kplay {

TimingStats summarize_timings(std::vector<double> samples) {
    TimingStats stats;
    stats.count = static_cast<int>(samples.size());
    if (samples.empty()) return stats;
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    stats.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    stats.min = samples.front();
    stats.max = samples.back();
    stats.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
    double squares = 0;
    for (double s : samples) squares += (s - stats.mean) * (s - stats.mean);
    stats.stddev = n > 1 ? std::sqrt(squares / (n - 1)) : 0;
    return stats;
}

}  // namespace kplay
