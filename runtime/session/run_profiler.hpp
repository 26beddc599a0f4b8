// Nsight Compute on a good GPU run, in its own process in the background (kplay-cli under ncu), for the
// history run it belongs to. Only offered where ncu is installed.
#pragma once

#include <filesystem>
#include <optional>

#include "inspect/profiler.hpp"
#include "session/background.hpp"

namespace kplay {

class RunProfiler {
public:
    // Whether `ran` can be profiled now: a good GPU run, nothing being profiled, ncu installed.
    bool can_profile(const RunReport& ran) const;
    // Profiles `ran`, the result of `request` and history run `run`; `cli` runs it again.
    void start(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran, int run);
    // Collects a finished profile; true when it came.
    bool poll() { return work_.poll(); }  // collects a finished one; true when it came
    bool running() const { return work_.running(); }
    void clear() { work_.clear(); }  // another file was opened

    const std::optional<ProfileOutcome>& outcome() const { return work_.outcome(); }
    int run() const { return work_.run(); }  // the history's run the outcome belongs to

private:
    RunFollowUp<ProfileOutcome> work_;
    mutable std::optional<bool> ncu_found_;  // whether ncu is installed, looked up once
};

}  // namespace kplay
