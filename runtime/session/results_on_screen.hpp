// The results the window shows: the newest one, good or bad (read for its numbers and diagnostics),
// and the newest one with outputs to draw. The arrays live once, in shown(); last() keeps none. A run
// that fails leaves the last good picture visible, marked stale; version() changes whenever the arrays
// to draw do, so the window uploads them again only then.
#pragma once

#include <functional>
#include <optional>

#include "values/run_report.hpp"
#include "values/run_request.hpp"

namespace kplay {

class ResultsOnScreen {
public:
    // The worker leaves out an input that is on screen already: a result shown in place of the picture
    // takes it over from that picture (moved, not copied: some MiB on every save). Whether a view
    // without its input could have it so: it carries it, or it is the input on screen.
    bool can_fill_input(const OutputView& view) const;
    // A progressive run's checked result (RunReport::partial), before its timed repeats: shown at once.
    void show_partial(RunReport report, const RunRequest& request);
    // Whether shown() holds the arrays of such a checked result.
    bool shows_partial() const { return shown_partial_; }
    // The final answer of that run, sent without its arrays again: they move to it from shown(), and
    // come back with show(..., same_view = true).
    void lend_view(OutputView& view) { view = std::move(shown_->view); }
    // A run's final result, of `request`; `same_view`: its arrays are those on screen already.
    void show(RunReport report, const RunRequest& request, bool same_view);
    // The full resolution of the downsampled view on screen (its full_view_key), in its place with the
    // same input; false when the screen shows another view now.
    bool show_full_view(OutputView full);
    // Both results changed in place (a ceiling that arrived).
    void update_each(const std::function<void(RunReport&)>& change);

    const std::optional<RunReport>& last() const { return last_; }
    const std::optional<RunReport>& shown() const { return shown_; }
    const RunRequest& last_request() const { return last_request_; }  // of last(): finders and profiler run it again
    const RunRequest& shown_request() const { return shown_request_; }  // of shown(): the writer map runs it again
    bool stale() const { return stale_; }
    int version() const { return version_; }

private:
    void set_last(RunReport report);
    void take_known_input(OutputView& view);
    // A drawable result takes the screen: its numbers in last(), its arrays (and the input it was sent
    // without) in shown().
    void put_on_screen(RunReport report, const RunRequest& request, bool partial);

    std::optional<RunReport> last_, shown_;
    RunRequest last_request_, shown_request_;
    bool stale_ = false;
    bool shown_partial_ = false;
    int version_ = 0;
};

}  // namespace kplay
