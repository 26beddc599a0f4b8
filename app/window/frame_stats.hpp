// Frame times of the window, for the p99 the state dump reports (the UI must stay smooth while a
// compile and a run are in flight).
#pragma once

#include <deque>

namespace kplay::window {

class FrameStats {
public:
    void add(double ms);
    void count_only() { ++total_; }  // a frame counted but left out of the percentiles
    double percentile(double p) const;  // over the last 2000 frames
    int frames() const { return total_; }

private:
    static constexpr int kStartupFrames = 3;
    std::deque<double> recent_;
    int total_ = 0;
};

}  // namespace kplay::window
