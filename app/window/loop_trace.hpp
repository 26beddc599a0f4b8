// The window loop's recent events with their times, for the state dump: when a worker's socket turned
// readable, when each frame began, and what each frame took in (a save read, a run sent, an answer, and
// whether that answer was a run's checked result). It answers "why did this answer wait" on a machine
// where only the dump comes back (scripts/measure-window prints it with --trace).
#pragma once

#include <chrono>
#include <deque>

#include <nlohmann/json.hpp>

namespace kplay::window {

// What the session had counted after a frame's taking in; a change from the last frame is an event.
struct LoopCounts {
    int reloads = 0, submitted = 0, received = 0;
    bool showing_partial = false;
    // The shown run's worker timeline, ms from its start: checked, its checked result sent (a checked
    // result itself says when it was about to be sent; its final answer, when it had left), its end.
    double checked_at_ms = 0, partial_at_ms = 0, run_ms = 0;
    bool operator==(const LoopCounts&) const = default;
};

class LoopTrace {
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    void worker_ready(TimePoint at) { add(at, "ready"); }
    // A frame began at `start` and had taken everything in at `taken_in`, leaving the session at `counts`.
    void frame(TimePoint start, TimePoint taken_in, const LoopCounts& counts);
    // A frame over a 60 Hz budget, in parts (ms): kept apart from the events, the first 64 of them.
    void slow_frame(TimePoint start, bool updated, double take_in_ms, double draw_ms, double swap_ms);
    // The last events as [ms since the window started, what, ...]: the newest at the end.
    nlohmann::json to_json() const;
    // The slow frames as [ms since the window started, took anything in, take in, draw, swap].
    const nlohmann::json& slow_frames() const { return slow_; }

private:
    struct Event {
        double ms = 0;
        const char* what = "";
        LoopCounts counts;
    };
    void add(TimePoint at, const char* what, const LoopCounts& counts = {});
    TimePoint origin_ = std::chrono::steady_clock::now();
    LoopCounts last_;
    std::deque<Event> events_;
    nlohmann::json slow_ = nlohmann::json::array();
};

}  // namespace kplay::window
