// One question at a time to the worker that kept a downsampled view's output.
#include "session/full_view_fetch.hpp"

namespace kplay {

void FullViewFetch::ask(const OutputView& view, WorkerClient& worker, bool thorough) {
    if (view.step <= 1 || view.full_view_key.empty()) return;
    if (key_ == view.full_view_key && (asked_id_ || !problem_.empty())) return;  // asked, or told why not
    key_ = view.full_view_key;
    problem_.clear();
    thorough_ = thorough;
    asked_id_ = worker.submit_view(key_, thorough);
}

std::optional<OutputView> FullViewFetch::take(WorkerResult& result, bool from_thorough) {
    if (!asked_id_ || result.id != *asked_id_ || from_thorough != thorough_) return std::nullopt;  // a question since replaced
    asked_id_.reset();
    if (!result.ok() || !result.run.error.empty() || result.run.view.empty()) {
        problem_ = !result.run.error.empty() ? result.run.error : !result.failure_message.empty() ? result.failure_message
                                                                                                 : "the worker sent no view";
        return std::nullopt;
    }
    result.run.view.full_view_key = key_;  // which view on screen it is the full resolution of
    return std::move(result.run.view);
}

}  // namespace kplay
