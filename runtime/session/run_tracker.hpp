// The run the window waits for: its request, when and to which worker it went, and its key (the source
// and every setting). Only the answer to the newest run counts: a newer save or setting overtakes the
// one in flight. A key that hung is remembered, so that an undo back to it does not hang the worker
// again by itself. And how many runs were sent and answered, for the window and its tests.
#pragma once

#include <cstdint>
#include <string>

#include "session/clock.hpp"
#include "values/run_request.hpp"

namespace kplay {

class RunTracker {
public:
    // A run went to a worker as `id`; an older one in flight is overtaken.
    void sent(uint64_t id, RunRequest request, std::string key, bool thorough);
    // A run answered at once from an earlier result: nothing is in flight.
    void answered_at_once(RunRequest request);
    // Whether an answer from this worker (the two number their requests independently) with this id is
    // the one waited for.
    bool asked(bool thorough_worker) const { return thorough_worker == thorough_; }
    bool answers(uint64_t id) const { return id == id_; }
    // The checked result of the run in flight is on screen (a progressive run's first answer).
    void partial_shown() { partial_of_ = id_; }
    // Whether run `id`'s checked result was shown; forgotten with its final answer.
    bool take_partial(uint64_t id);
    // The final answer came; `timed_out`: the run hung.
    void finished(bool timed_out);

    bool waiting() const { return id_ != 0; }
    uint64_t in_flight() const { return id_; }  // the run waited for (0: none)
    double busy_seconds() const;
    bool thorough() const { return thorough_; }
    const RunRequest& request() const { return request_; }  // of the newest run, in flight or answered
    const std::string& key() const { return key_; }
    bool hung(const std::string& key) const { return key == hung_key_; }
    void forget_hung() { hung_key_.clear(); }  // another file was opened
    int submitted() const { return submitted_; }
    int received() const { return received_; }

private:
    uint64_t id_ = 0;  // the run request whose result we wait for (0: none)
    RunRequest request_;
    std::string key_, hung_key_;
    Clock::time_point since_{};
    bool thorough_ = false;    // it went to the thorough worker
    uint64_t partial_of_ = 0;  // the run whose checked result is on screen (0: none)
    int submitted_ = 0, received_ = 0;
};

}  // namespace kplay
