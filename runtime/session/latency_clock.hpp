// Edit -> result: from the moment a save was seen to the first frame that shows its answer (for a
// progressive run, the checked result, which comes before its timing). Opening a file is timed the
// same way (opened -> first result, the worker's start included) but is no edit: it stays out of the
// edit figures. Runs the user asked for (F5, a setting) are not timed.
#pragma once

#include <optional>
#include <vector>

#include "session/clock.hpp"

namespace kplay {

// Where an edit's time went, each from the save: the run handed to the worker, its answer read, and
// the frame that shows it on screen (the last is the edit's figure); `checked_first`: the answer shown
// was the run's checked result (a progressive run's first part), not its final answer.
struct EditStages {
    double sent_ms = 0, answered_ms = 0, presented_ms = 0;
    bool checked_first = false;
};

class LatencyClock {
public:
    // New text was read: the next run is timed from `at`.
    void edited(Clock::time_point at, bool opened);
    // The next run is not an edit's (F5, a changed setting).
    void untimed() { start_.reset(); }
    // A run went to the worker (or was answered from the recent results); `timed`: it came from new text.
    void sent(bool timed, Clock::time_point now = Clock::now());
    // Its answer is on screen from the next frame: the clock stops at that frame.
    void answered(Clock::time_point now = Clock::now());
    // The frame showing the answer is on screen. Returns an edit's time for the run's history entry;
    // for a checked (`partial`) result, whose run is not in the history yet, take_partial() has it.
    std::optional<double> presented(bool partial, Clock::time_point now = Clock::now());
    // The edit time measured at a run's checked result, once (then forgotten).
    std::optional<double> take_partial();

    const std::vector<double>& edits_ms() const { return edits_ms_; }
    const std::vector<EditStages>& edit_stages() const { return stages_; }  // by edit, as edits_ms
    std::optional<double> opened_to_result_ms() const { return opened_to_result_ms_; }
    bool showing_opened_result() const { return showing_opened_; }

private:
    // What started a run's clock: a save, or opening the file.
    struct Start {
        Clock::time_point at;
        bool opened = false;
        Clock::time_point sent, answered;
    };
    std::optional<Start> start_;      // of the next run, then of the answer waiting for its frame
    std::optional<Start> in_flight_;  // of the run in flight
    bool pending_ = false;            // an answer waits for its frame
    std::optional<double> partial_ms_;
    std::vector<double> edits_ms_;
    std::vector<EditStages> stages_;
    std::optional<double> opened_to_result_ms_;
    bool showing_opened_ = false;
};

}  // namespace kplay
