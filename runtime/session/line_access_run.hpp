// Nsight Compute's per-line memory counters of a good GPU run, in the background (kplay-cli under ncu,
// twice: collect SourceCounters, print the source page), placed on lines through the run's SASS
// listing; for the history run they belong to. Only offered where ncu is installed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "inspect/line_profiler.hpp"
#include "session/background.hpp"

namespace kplay {

class LineAccessRun {
public:
    // A good GPU run, nothing being measured, ncu installed.
    bool can_start(const RunReport& ran) const;
    // Measures `ran`, the result of `request` and history run `run`; `sass` is its build's listing.
    void start(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran, const Listing& sass, int run);
    bool poll() { return work_.poll(); }  // collects a finished one; true when it came
    bool running() const { return work_.running(); }
    void clear() { work_.clear(); }

    const std::optional<LineProfileOutcome>& outcome() const { return work_.outcome(); }
    int run() const { return work_.run(); }

private:
    RunFollowUp<LineProfileOutcome> work_;
    mutable std::optional<bool> ncu_found_;  // looked up once
};

}  // namespace kplay
