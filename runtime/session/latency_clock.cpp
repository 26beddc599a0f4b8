// Starting and stopping the edit->result clock.
#include "session/latency_clock.hpp"

namespace kplay {

void LatencyClock::edited(Clock::time_point at, bool opened) { start_ = Start{at, opened}; }

void LatencyClock::answered() {
    pending_ = in_flight_.has_value();
    if (pending_) start_ = in_flight_;
}

std::optional<double> LatencyClock::presented(bool partial, Clock::time_point now) {
    if (!pending_ || !start_) return std::nullopt;
    const double ms = std::chrono::duration<double, std::milli>(now - start_->at).count();
    std::optional<double> edit_ms;
    showing_opened_ = start_->opened;
    if (start_->opened) {
        opened_to_result_ms_ = ms;
    } else {
        edits_ms_.push_back(ms);
        if (partial)
            partial_ms_ = ms;
        else
            edit_ms = ms;
    }
    pending_ = false;
    start_.reset();
    return edit_ms;
}

std::optional<double> LatencyClock::take_partial() {
    std::optional<double> ms = partial_ms_;
    partial_ms_.reset();
    return ms;
}

}  // namespace kplay
