// Rolling window of frame times.
#include "frame_stats.hpp"

#include <algorithm>
#include <vector>

namespace kplay::window {

void FrameStats::add(double ms) {
    ++total_;
    if (total_ <= kStartupFrames) return;  // font atlas, shader compile and first uploads are not steady state
    recent_.push_back(ms);
    if (recent_.size() > 2000) recent_.pop_front();
}

double FrameStats::percentile(double p) const {
    if (recent_.empty()) return 0;
    std::vector<double> sorted(recent_.begin(), recent_.end());
    std::sort(sorted.begin(), sorted.end());
    const size_t index = std::min(sorted.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(sorted.size())));
    return sorted[index];
}

}  // namespace kplay::window
