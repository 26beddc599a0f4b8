// Finding the line of a GPU fault: the same run again on the emulated device (whose guard pages name
// the thread, block, buffer and line), or under compute-sanitizer in a fresh kplay-cli process.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "client/run_report.hpp"
#include "client/run_request.hpp"
#include "inspect/sanitizer_report.hpp"

namespace kplay {

enum class FaultFinder { emulated_device, compute_sanitizer };
std::string_view name_of(FaultFinder finder);  // "emulated device", "compute-sanitizer"

struct FaultLocation {
    FaultFinder finder = FaultFinder::emulated_device;
    bool found = false;
    int line = 0;         // in the kernel file; 0 when the finder named no line of it
    std::string message;  // plain words: which thread, block, buffer and access
    std::string problem;  // why the finder could not say (it ran clean, cannot run this kernel, is missing)
    double seconds = 0;   // how long the finder took
};

// Is this report a fault whose line a finder can look for (a sticky fault on a GPU, or a write past a
// buffer's end that the GPU did not fault on)?
bool can_find_fault_line(const RunReport& report);

// The faulted run again on the emulated device: the same file text, launch, arguments, defines and
// seed, at the size that faulted only.
RunRequest emulated_rerun_request(const RunRequest& original, const RunReport& faulted);
FaultLocation location_from_emulated_run(const RunReport& emulated);

// The faulted run again in a fresh `kplay-cli run --in-process` under compute-sanitizer's memcheck,
// blocking until it ends (at most timeout_s). `cli` is kplay-cli's path.
std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::filesystem::path& cli,
                                           const RunRequest& original, const RunReport& faulted);
FaultLocation location_from_sanitizer(const SanitizerReport& report, const std::string& kernel_file);
FaultLocation find_fault_with_sanitizer(const std::filesystem::path& cli, const RunRequest& original, const RunReport& faulted,
                                        double timeout_s = 120);

}  // namespace kplay
