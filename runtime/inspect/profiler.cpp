// ncu over a fresh kplay-cli, and the summary of its CSV.
#include "inspect/profiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "base/cache_dir.hpp"
#include "base/subprocess.hpp"
#include "base/text.hpp"
#include "inspect/cuda_tools.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kStallPrefix = "smsp__average_warps_issue_stalled_";
constexpr std::string_view kStallSuffix = "_per_issue_active.ratio";
}  // namespace

const std::vector<std::string>& default_profile_sections() {
    static const std::vector<std::string> sections{"SpeedOfLight", "Occupancy", "WarpStateStats", "MemoryWorkloadAnalysis", "LaunchStats"};
    return sections;
}

std::vector<std::string> ncu_kernel_filter(const RunReport& ran) {
    std::vector<std::string> arguments{"--target-processes", "all", "--clock-control", "none", "--launch-count", "1"};
    if (!ran.lowered_name.empty()) arguments.insert(arguments.end(), {"--kernel-name-base", "mangled", "--kernel-name", "regex:^" + ran.lowered_name + "$"});
    return arguments;
}

std::vector<std::string> profiled_run_arguments(const fs::path& cli, const RunRequest& request, const RunReport& ran) {
    std::vector<std::string> arguments{cli.string()};
    RunRequest rerun = request;
    if (!ran.sizes.empty()) rerun.inputs.size = ran.sizes;
    for (auto& argument : rerun_arguments(rerun)) arguments.push_back(std::move(argument));
    for (const char* argument : {"--no-test-sizes", "--timeout", "120"}) arguments.emplace_back(argument);
    if (request.emulate) arguments.insert(arguments.end(), {"--device", "cpu"});
    else arguments.insert(arguments.end(), {"--device", std::to_string(request.device)});
    return arguments;
}

std::vector<std::string> ncu_command(const fs::path& ncu, const fs::path& cli, const RunRequest& request, const RunReport& ran,
                                     const std::vector<std::string>& sections, const fs::path& csv_path) {
    std::vector<std::string> command{ncu.string()};
    for (auto& argument : ncu_kernel_filter(ran)) command.push_back(std::move(argument));
    for (const auto& section : sections) command.insert(command.end(), {"--section", section});
    command.insert(command.end(), {"--metrics", "regex:" + std::string(kStallPrefix) + ".*" + "_per_issue_active\\.ratio"});
    command.insert(command.end(), {"--csv", "--page", "details", "--log-file", csv_path.string()});
    for (auto& argument : profiled_run_arguments(cli, request, ran)) command.push_back(std::move(argument));
    return command;
}

std::string duration_text(double ns) {
    if (ns < 0) return "n/a";
    char text[32];
    if (ns < 1e3) std::snprintf(text, sizeof text, "%.0f ns", ns);
    else if (ns < 1e6) std::snprintf(text, sizeof text, "%.3g \u00b5s", ns / 1e3);
    else std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
    return text;
}

std::vector<std::string> describe_profile(const ProfileSummary& s) {
    auto percent = [](double value) { return value < 0 ? std::string("n/a") : short_number(value) + "%"; };
    std::vector<std::string> lines{
        duration_text(s.duration_ns) + "; SM " + percent(s.sm_throughput_pct) + ", memory " + percent(s.memory_throughput_pct) + " (DRAM " +
            percent(s.dram_throughput_pct) + ") of peak",
        "occupancy " + percent(s.achieved_occupancy_pct) + " achieved of " + percent(s.theoretical_occupancy_pct) + " theoretical; L1 hit " +
            percent(s.l1_hit_pct) + ", L2 hit " + percent(s.l2_hit_pct) + "; " + std::to_string(s.registers_per_thread) + " registers/thread"};
    if (!s.top_stalls.empty()) {
        std::vector<std::string> stalls;
        for (const auto& stall : s.top_stalls) stalls.push_back(stall.name + " " + short_number(stall.cycles_per_issue));
        lines.push_back("stalls: " + join(stalls) + " (cycles per issued instruction)");
    }
    return lines;
}

void add_stalls_from_details(ProfileSummary& summary) {
    std::vector<StallReason> stalls;
    for (const auto& metric : summary.metrics) {
        const std::string& name = metric.name;
        if (name.size() <= kStallPrefix.size() + kStallSuffix.size() || name.compare(0, kStallPrefix.size(), kStallPrefix) != 0 ||
            name.compare(name.size() - kStallSuffix.size(), kStallSuffix.size(), kStallSuffix) != 0)
            continue;
        std::string reason = name.substr(kStallPrefix.size(), name.size() - kStallPrefix.size() - kStallSuffix.size());
        if (reason == "selected") continue;  // the cycle a warp issues, not a stall
        std::replace(reason.begin(), reason.end(), '_', ' ');
        std::string digits;
        for (char c : metric.value)
            if (c != ',') digits += c;
        char* end = nullptr;
        const double value = std::strtod(digits.c_str(), &end);
        if (digits.empty() || end != digits.c_str() + digits.size()) continue;
        stalls.push_back({reason, value});
    }
    if (stalls.empty()) return;
    std::sort(stalls.begin(), stalls.end(), [](const StallReason& a, const StallReason& b) { return a.cycles_per_issue > b.cycles_per_issue; });
    if (stalls.size() > 3) stalls.resize(3);
    summary.top_stalls = std::move(stalls);
}

ProfileOutcome profile_with_ncu(const fs::path& cli, const RunRequest& request, const RunReport& ran, const std::vector<std::string>& sections,
                                double timeout_s) {
    const auto start = std::chrono::steady_clock::now();
    ProfileOutcome outcome;
    const ToolLookup tool = find_cuda_tool(CudaTool::ncu);
    if (!tool.found()) {
        outcome.problem = tool.missing;
        return outcome;
    }
    std::error_code error;
    const fs::path csv = fs::temp_directory_path(error) / ("kplay-profile-" + std::to_string(getpid()) + ".csv");
    const ProcessResult run = run_process(ncu_command(tool.path, cli, request, ran, sections, csv), timeout_s);
    std::string text;
    read_whole_file(csv, text);
    fs::remove(csv, error);
    std::string why;
    outcome.summary = parse_ncu_details_csv(text, &why);
    if (outcome.summary) add_stalls_from_details(*outcome.summary);
    if (!outcome.summary) {
        const std::string explained = explain_ncu_failure(run.output + "\n" + text, run.exit_code);
        outcome.problem = run.timed_out ? "ncu ran past " + std::to_string(static_cast<int>(timeout_s)) + " s and was stopped."
                          : !explained.empty() ? explained
                                               : "ncu gave no table: " + why;
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

}  // namespace kplay
