// Starting and stopping the edit->result clock.
#include "session/latency_clock.hpp"

namespace kplay {

void LatencyClock::edited(Clock::time_point at, bool opened) { start_ = Start{at, opened}; }

namespace {

double ms_between(Clock::time_point from, Clock::time_point to) { return std::chrono::duration<double, std::milli>(to - from).count(); }

}  // namespace

void LatencyClock::sent(bool timed, Clock::time_point now) {
    in_flight_ = timed ? start_ : std::nullopt;
    if (in_flight_) in_flight_->sent = now;
}

void LatencyClock::answered(Clock::time_point now) {
    pending_ = in_flight_.has_value();
    if (!pending_) return;
    start_ = in_flight_;
    start_->answered = now;
}

std::optional<double> LatencyClock::presented(bool partial, Clock::time_point now) {
    if (!pending_ || !start_) return std::nullopt;
    const double ms = ms_between(start_->at, now);
    std::optional<double> edit_ms;
    showing_opened_ = start_->opened;
    if (start_->opened) {
        opened_to_result_ms_ = ms;
    } else {
        edits_ms_.push_back(ms);
        stages_.push_back({ms_between(start_->at, start_->sent), ms_between(start_->at, start_->answered), ms, partial});
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
