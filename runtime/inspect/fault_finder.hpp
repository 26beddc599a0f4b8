// Finding the line of a GPU fault: the same run again on the emulated device (whose guard pages name
// the thread, block, buffer and line), or under compute-sanitizer in a fresh kplay-cli process. The
// sanitizer's other tools look at a run that need not have failed: racecheck for shared-memory races
// (a racy kernel often passes on a GPU), synccheck for barriers used wrongly, initcheck for reads of
// memory nothing wrote.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "inspect/sanitizer_report.hpp"

namespace kplay {

enum class FaultFinder { emulated_device, compute_sanitizer };
std::string_view name_of(FaultFinder finder);  // "emulated device", "compute-sanitizer"

struct FaultLocation {
    FaultFinder finder = FaultFinder::emulated_device;
    SanitizerTool tool = SanitizerTool::memcheck;  // the sanitizer's tool (finder compute_sanitizer)
    bool found = false;
    int line = 0;         // in the kernel file; 0 when the finder named no line of it
    int other_line = 0;   // a race's earlier access, in the kernel file; 0 when none
    std::string message;  // plain words: which thread, block, buffer and access
    std::string problem;  // why the finder could not say (it ran clean, cannot run this kernel, is missing)
    double seconds = 0;   // how long the finder took
    int findings = 0;     // how many the tool counted (its summary), 0 when it did not say
    std::optional<RaceHazard> race;  // racecheck: the hazard the line is of
};

// Is this report a fault whose line a finder can look for (a sticky fault on a GPU, or a write past a
// buffer's end that the GPU did not fault on)?
bool can_find_fault_line(const RunReport& report);
// Can the sanitizer's `tool` look at this run: memcheck as can_find_fault_line; the other tools at any
// GPU run whose kernel was launched (passing or not).
bool can_run_sanitizer(const RunReport& report, SanitizerTool tool);

// The faulted run again on the emulated device: the same file text, launch, arguments, defines and
// seed, at the size that faulted only.
RunRequest emulated_rerun_request(const RunRequest& original, const RunReport& faulted);
FaultLocation location_from_emulated_run(const RunReport& emulated);

// The run again in a fresh `kplay-cli run --in-process` under compute-sanitizer's `tool`, blocking until
// it ends (at most timeout_s). `cli` is kplay-cli's path. racecheck prints hazard records
// (`--racecheck-report hazard`): each names the hazard's kind, the shared byte, the block and both
// threads with their lines, where an analysis record names only the two lines. initcheck checks shared
// memory as well as global (`--initcheck-address-space all`): kplay writes every buffer it hands a
// kernel, so a read of memory nothing wrote is most often a shared tile read before it was filled.
std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::filesystem::path& cli,
                                           const RunRequest& original, const RunReport& faulted,
                                           SanitizerTool tool = SanitizerTool::memcheck);
// A line only from a report form kplay knows; any other says so in `problem`, quoting what it could not read.
FaultLocation location_from_sanitizer(const SanitizerReport& report, const std::string& kernel_file);
FaultLocation find_fault_with_sanitizer(const std::filesystem::path& cli, const RunRequest& original, const RunReport& faulted,
                                        double timeout_s = 120, SanitizerTool tool = SanitizerTool::memcheck);

}  // namespace kplay
