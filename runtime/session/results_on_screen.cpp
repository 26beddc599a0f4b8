// Which result is drawn, which is read, and when the drawn arrays change.
#include "session/results_on_screen.hpp"

namespace kplay {

namespace {

// `report` without its view's arrays, made without copying them (MiB for an image and its map).
RunReport numbers_of(RunReport& report) {
    OutputView view = std::move(report.view);
    RunReport numbers = report;
    report.view = std::move(view);
    numbers.view = OutputView{report.view.kind, report.view.buffer};
    return numbers;
}

}  // namespace

bool ResultsOnScreen::can_fill_input(const OutputView& view) const {
    return !view.input.empty() || view.input_identity.empty() || (shown_ && view.input_identity == shown_->view.input_identity);
}

void ResultsOnScreen::take_known_input(OutputView& view) {
    if (shown_ && view.input.empty() && !view.input_identity.empty() && view.input_identity == shown_->view.input_identity)
        view.input = std::move(shown_->view.input);
}

void ResultsOnScreen::put_on_screen(RunReport report, const RunRequest& request, bool partial) {
    take_known_input(report.view);
    last_ = numbers_of(report);
    shown_ = std::move(report);
    shown_request_ = request;
    stale_ = false;
    shown_partial_ = partial;
}

void ResultsOnScreen::show_partial(RunReport report, const RunRequest& request) {
    shown_partial_ = false;
    if (!report.ok() || !report.view.drawable()) return set_last(std::move(report));
    put_on_screen(std::move(report), request, true);
    ++version_;
}

void ResultsOnScreen::show(RunReport report, const RunRequest& request, bool same_view) {
    last_request_ = request;
    if (!report.ok() || !report.view.drawable()) {
        if (shown_) stale_ = true;  // keep the last good output visible, marked stale
        return set_last(std::move(report));
    }
    put_on_screen(std::move(report), request, false);
    if (!same_view) ++version_;  // the same arrays: nothing to upload again
}

void ResultsOnScreen::set_last(RunReport report) {
    // last_ is read for numbers and diagnostics only: the arrays live in shown_, not copied twice.
    last_ = std::move(report);
    last_->view = OutputView{last_->view.kind, last_->view.buffer};
}

bool ResultsOnScreen::show_full_view(OutputView full) {
    if (!shown_ || shown_->view.full_view_key.empty() || shown_->view.full_view_key != full.full_view_key) return false;
    OutputView& view = shown_->view;
    full.input = std::move(view.input);
    full.input_w = view.input_w;
    full.input_h = view.input_h;
    full.input_identity = view.input_identity;
    view = std::move(full);
    ++version_;
    return true;
}

void ResultsOnScreen::update_each(const std::function<void(RunReport&)>& change) {
    if (last_) change(*last_);
    if (shown_) change(*shown_);
}

}  // namespace kplay
