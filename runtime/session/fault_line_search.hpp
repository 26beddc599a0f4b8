// After a GPU fault, the line it happened on, looked for two ways at once: the same launch again
// on the emulated device (through the worker, which sees every access), and under compute-sanitizer
// where it is installed (kplay-cli in a process of its own, in the background). Each finder's answer
// names a line or says why it could not.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "client/worker_client.hpp"
#include "inspect/fault_finder.hpp"
#include "session/background.hpp"

namespace kplay {

class FaultLineSearch {
public:
    // A fault whose line a finder can look for, and is not being or been looked for.
    bool can_start(const RunReport& faulted) const;
    // Looks for the line of `faulted`, the result of `request`; `cli` runs the sanitizer.
    void start(const RunRequest& request, const RunReport& faulted, WorkerClient& worker,
               const std::filesystem::path& cli);
    // racecheck, synccheck or initcheck on a GPU run that launched (passing or not), where
    // compute-sanitizer is installed and nothing is being looked for.
    bool can_start_tool(const RunReport& ran, SanitizerTool tool) const;
    void start_tool(const RunRequest& request, const RunReport& ran, const std::filesystem::path& cli, SanitizerTool tool);
    // A worker answer: true when it was the emulated re-run's.
    bool handle(const WorkerResult& result);
    // Collects the sanitizer's answer; true when it came.
    bool poll();
    bool running() const { return rerun_id_ != 0 || sanitizer_.running(); }
    void clear() { locations_.clear(); }  // they were of the run before

    // The emulated device's first, then the sanitizer's.
    const std::vector<FaultLocation>& locations() const { return locations_; }
    // The first finder's line that found one.
    std::optional<int> found_line() const;

private:
    uint64_t rerun_id_ = 0;  // the emulated re-run in the worker (0: none)
    Background<FaultLocation> sanitizer_;
    std::vector<FaultLocation> locations_;
    mutable std::optional<bool> sanitizer_installed_;  // looked up once: the answer does not change while the window runs
};

}  // namespace kplay
