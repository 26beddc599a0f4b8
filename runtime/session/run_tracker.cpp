// Which answer counts, and what hung.
#include "session/run_tracker.hpp"

namespace kplay {

void RunTracker::sent(uint64_t id, RunRequest request, std::string key, bool thorough) {
    thorough_ = thorough;
    id_ = id;
    request_ = std::move(request);
    since_ = Clock::now();
    key_ = std::move(key);
    ++submitted_;
}

void RunTracker::answered_at_once(RunRequest request) {
    id_ = 0;  // anything still in flight is overtaken by this answer
    request_ = std::move(request);
    ++submitted_;
    ++received_;
}

bool RunTracker::take_partial(uint64_t id) {
    const bool shown = partial_of_ == id;
    partial_of_ = 0;
    return shown;
}

void RunTracker::finished(bool timed_out) {
    id_ = 0;
    ++received_;
    if (timed_out) hung_key_ = key_;
}

double RunTracker::busy_seconds() const {
    return id_ ? std::chrono::duration<double>(Clock::now() - since_).count() : 0;
}

}  // namespace kplay
