// Nsight Compute per run: the kernel once under ncu, in a fresh `kplay-cli run` of its own (an ncu
// failure is only a message), its CSV read into a summary.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "inspect/ncu_report.hpp"

namespace kplay {

// SpeedOfLight, Occupancy, WarpStateStats, MemoryWorkloadAnalysis, LaunchStats.
const std::vector<std::string>& default_profile_sections();

struct ProfileOutcome {
    std::optional<ProfileSummary> summary;
    std::string problem;  // why there is no summary, in plain words
    double seconds = 0;
};

// ncu's options that pick the kernel (by its mangled name) once, clocks as they are; and the kplay-cli
// run that launches it (the same request at the size that ran), which follows them.
std::vector<std::string> ncu_kernel_filter(const RunReport& ran);
std::vector<std::string> profiled_run_arguments(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran);

// The ncu command line: the kernel (matched by its mangled name) once, clocks as they are
// (--clock-control none), the sections and the stall metrics, CSV into `csv_path`.
std::vector<std::string> ncu_command(const std::filesystem::path& ncu, const std::filesystem::path& cli, const RunRequest& request,
                                     const RunReport& ran, const std::vector<std::string>& sections, const std::filesystem::path& csv_path);
// Runs it, blocking (at most timeout_s). `ran` is a finished run of the same request (its sizes and
// mangled name are used); `cli` is kplay-cli's path.
ProfileOutcome profile_with_ncu(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran,
                                const std::vector<std::string>& sections = default_profile_sections(), double timeout_s = 300);
// "3.78 µs", "110 µs", "2.41 ms"; "n/a" for a duration ncu did not give (negative).
std::string duration_text(double ns);

// A summary in plain words, for the CLI and the window alike: "3.78 µs; SM 16.4%, memory 17% (DRAM 17%)
// of peak", then occupancy, hit rates and registers, then the top stalls when ncu gave them ("n/a" for
// a figure it did not). ncu's advice is summary.advice.
std::vector<std::string> describe_profile(const ProfileSummary& summary);

// The stall rows of the details page (ncu prints the requested stall metrics there) as top_stalls.
void add_stalls_from_details(ProfileSummary& summary);

}  // namespace kplay
