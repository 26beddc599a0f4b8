// Asking the worker that made a downsampled image view (OutputView::step) for its full resolution, once
// per view, and taking the answer in. The window asks when the user looks closely: a zoom past
// the view's own pixels, a Save; a save's result alone never waits for it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "client/worker_client.hpp"
#include "values/output_view.hpp"

namespace kplay {

class FullViewFetch {
public:
    // Asks `worker` for `view`'s full resolution, unless it is whole or was asked for already.
    // `thorough`: the view came from the thorough worker (what a remote host's supervisor needs to know).
    void ask(const OutputView& view, WorkerClient& worker, bool thorough);
    // A "view" answer: the full view when it answers the question asked of that worker, else nullopt
    // (an older question's answer, dropped; or a failure, said in problem()).
    std::optional<OutputView> take(WorkerResult& result, bool from_thorough);
    // The key of the view asked about, while the answer is awaited.
    bool waiting_for(const OutputView& view) const { return asked_id_ && key_ == view.full_view_key; }
    const std::string& problem() const { return problem_; }

private:
    std::optional<uint64_t> asked_id_;
    bool thorough_ = false;
    std::string key_;      // of the view asked about
    std::string problem_;  // the last answer's failure, for the view with key_
};

}  // namespace kplay
