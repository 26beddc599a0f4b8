// The window loop's event ring (see loop_trace.hpp).
#include "loop_trace.hpp"

#include <cmath>
#include <string_view>

namespace kplay::window {

namespace {
constexpr size_t kKept = 800;  // a few edits' worth at 30 frames a second
}

void LoopTrace::add(TimePoint at, const char* what, const LoopCounts& counts) {
    events_.push_back({std::chrono::duration<double, std::milli>(at - origin_).count(), what, counts});
    if (events_.size() > kKept) events_.pop_front();
}

void LoopTrace::frame(TimePoint start, TimePoint taken_in, const LoopCounts& counts) {
    add(start, "frame");
    if (counts == last_) return;
    // What changed decides the word: an answer outranks a run sent in the same frame, which outranks a read.
    // A checked result is not counted as received (its run is still in flight): it shows as the flag.
    const char* what = counts.received != last_.received                           ? "answer"
                       : counts.showing_partial && !last_.showing_partial ? "checked"
                       : counts.submitted != last_.submitted                       ? "sent"
                       : counts.reloads != last_.reloads     ? "read"
                                                             : "changed";
    add(taken_in, what, counts);
    last_ = counts;
}

void LoopTrace::slow_frame(TimePoint start, bool updated, double take_in_ms, double draw_ms, double swap_ms) {
    if (take_in_ms + draw_ms + swap_ms <= 1000.0 / 60 || slow_.size() >= 64) return;
    const auto round = [](double ms) { return std::round(ms * 10) / 10; };
    slow_.push_back({round(std::chrono::duration<double, std::milli>(start - origin_).count()), updated, round(take_in_ms), round(draw_ms), round(swap_ms)});
}

nlohmann::json LoopTrace::to_json() const {
    nlohmann::json list = nlohmann::json::array();
    for (const Event& e : events_) {
        nlohmann::json item = {std::round(e.ms * 100) / 100, e.what};
        const std::string_view what = e.what;
        if (what != "frame" && what != "ready")
            item.push_back({e.counts.reloads, e.counts.submitted, e.counts.received, e.counts.checked_at_ms, e.counts.partial_at_ms, e.counts.run_ms});
        list.push_back(std::move(item));
    }
    return list;
}

}  // namespace kplay::window
