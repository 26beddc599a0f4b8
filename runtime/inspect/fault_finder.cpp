// The two ways to the line of a GPU fault, and their reports in the same words.
#include "inspect/fault_finder.hpp"

#include <algorithm>
#include <chrono>

#include "base/subprocess.hpp"
#include "base/text.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/listing.hpp"

namespace kplay {

std::string_view name_of(FaultFinder finder) {
    return finder == FaultFinder::emulated_device ? "emulated device" : "compute-sanitizer";
}

bool can_find_fault_line(const RunReport& report) { return !report.emulated && (report.sticky_fault() || report.fault.overrun); }

bool can_run_sanitizer(const RunReport& report, SanitizerTool tool) {
    if (tool == SanitizerTool::memcheck) return can_find_fault_line(report);
    return !report.emulated && reached(report, Stage::launch);
}

RunRequest emulated_rerun_request(const RunRequest& original, const RunReport& faulted) {
    RunRequest rerun = original;
    rerun.emulate = true;
    if (!faulted.sizes.empty()) rerun.inputs.size = faulted.sizes;
    rerun.check_test_sizes = false;  // the faulting size only: the line is what is wanted, fast
    rerun.warmup = 0;
    rerun.repeat = 1;
    rerun.keep_outputs = false;
    rerun.measure_ceiling = false;
    rerun.defer_library_ceiling = false;
    rerun.baseline = Baseline::none;
    rerun.arch.clear();
    return rerun;
}

FaultLocation location_from_emulated_run(const RunReport& emulated) {
    FaultLocation location;
    location.finder = FaultFinder::emulated_device;
    if (emulated.ok()) {
        location.problem = "The emulated device ran the same launch without a fault (" +
                           std::string(emulated.check.passed ? "its output is right" : "its output is wrong") +
                           "): the fault may depend on the GPU's memory layout, or on timing between threads.";
        return location;
    }
    if (emulated.stage != Stage::run && emulated.stage != Stage::check) {
        location.problem = "The emulated device cannot run this kernel: " + emulated.error;
        return location;
    }
    location.found = emulated.error_line > 0;
    location.line = emulated.error_line;
    location.message = emulated.error;
    if (!location.found) location.problem = "The emulated device faulted too but could not name a line: " + emulated.error;
    return location;
}

namespace {

// Each tool's options: few findings printed (the first are what is read), no backtraces.
std::vector<std::string> tool_options(SanitizerTool tool) {
    switch (tool) {
        // API errors (cuFuncGetParamInfo is refused under the sanitizer, and kplay copes) would use up
        // the print limit.
        case SanitizerTool::memcheck: return {"--report-api-errors", "no", "--print-limit", "4"};
        // One record per byte and pair of threads: a float's race is four records.
        case SanitizerTool::racecheck: return {"--racecheck-report", "hazard", "--print-limit", "32"};
        case SanitizerTool::synccheck: return {"--print-limit", "4"};
        case SanitizerTool::initcheck: return {"--initcheck-address-space", "all", "--print-limit", "4"};
    }
    return {};
}

}  // namespace

std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::filesystem::path& cli,
                                           const RunRequest& original, const RunReport& faulted, SanitizerTool tool) {
    RunRequest rerun = original;
    if (!faulted.sizes.empty()) rerun.inputs.size = faulted.sizes;
    // Without kplay's guard zone: memcheck judges a write by the allocation's end.
    std::vector<std::string> command{"env", "KPLAY_GUARD_ZONE=0", sanitizer.string(), "--tool", std::string(name_of(tool))};
    for (auto& option : tool_options(tool)) command.push_back(std::move(option));
    command.insert(command.end(), {"--show-backtrace", "no", cli.string()});
    for (auto& argument : rerun_arguments(rerun)) command.push_back(std::move(argument));
    for (const char* argument : {"--in-process", "--no-test-sizes", "--timeout", "60", "--no-l2-flush"}) command.emplace_back(argument);
    command.push_back("--device");
    command.push_back(std::to_string(original.device));
    return command;
}

namespace {

// The hazard to show: an error before a warning, one with both lines in the kernel file before others.
const RaceHazard* chosen_hazard(const RacecheckReport& races, const std::string& kernel_file) {
    const RaceHazard* best = nullptr;
    auto score = [&](const RaceHazard& h) {
        return (h.severity == RaceSeverity::error ? 4 : 0) + (is_kernel_file(h.second.file, kernel_file) ? 2 : 0) +
               (is_kernel_file(h.first.file, kernel_file) ? 1 : 0);
    };
    for (const RaceHazard& hazard : races.hazards)
        if (!best || score(hazard) > score(*best)) best = &hazard;
    return best;
}

// "; also WAR between lines 21 and 18": the other pairs of lines racecheck named, at most three.
std::string other_pairs(const RacecheckReport& races, const RaceHazard& shown) {
    std::vector<std::string> pairs;
    for (const RaceHazard& h : races.hazards) {
        if (h.first.line == shown.first.line && h.second.line == shown.second.line && h.kind == shown.kind) continue;
        const std::string pair = std::string(name_of(h.kind)) + " between lines " + std::to_string(h.first.line) + " and " + std::to_string(h.second.line);
        if (std::find(pairs.begin(), pairs.end(), pair) == pairs.end() && pairs.size() < 3) pairs.push_back(pair);
    }
    return pairs.empty() ? "" : "; also " + join(pairs, ", ");
}

// racecheck's answer: a hazard record's lines, else an analysis record's, else why there is none.
FaultLocation location_from_races(const SanitizerReport& report, const std::string& kernel_file, FaultLocation location) {
    const RacecheckReport& races = report.races;
    location.findings = std::max(0, report.error_count);
    if (const RaceHazard* hazard = chosen_hazard(races, kernel_file)) {
        location.race = *hazard;
        location.line = is_kernel_file(hazard->second.file, kernel_file) ? hazard->second.line : 0;
        location.other_line = is_kernel_file(hazard->first.file, kernel_file) ? hazard->first.line : 0;
        location.found = location.line > 0;
        location.message = describe_hazard(*hazard) + other_pairs(races, *hazard);
        if (!location.found) location.problem = "racecheck placed the race outside the kernel file (no line information?): " + location.message;
        return location;
    }
    if (!races.analyses.empty()) {
        const RaceAnalysis& analysis = races.analyses.front();
        location.line = is_kernel_file(analysis.access.file, kernel_file) ? analysis.access.line : 0;
        if (!analysis.others.empty() && is_kernel_file(analysis.others.front().file, kernel_file)) location.other_line = analysis.others.front().line;
        location.found = location.line > 0;
        location.message = describe_analysis(analysis);
        if (!location.found) location.problem = "racecheck placed the race outside the kernel file: " + location.message;
        return location;
    }
    const std::string unread = races.unread.empty() ? "" : " The first line kplay could not read: '" + races.unread.front() + "'.";
    if (races.displayed > 0 || (!races.unread.empty() && races.displayed != 0))
        location.problem = "compute-sanitizer's racecheck reported " + (races.displayed > 0 ? std::to_string(races.displayed) + " hazards" : std::string("something")) +
                           " in a form kplay does not know." + unread;
    else if (races.displayed == 0)
        location.problem = "racecheck found no shared-memory race in the same run (RACECHECK SUMMARY: 0 hazards).";
    else
        location.problem = !report.tool_error.empty() ? "compute-sanitizer could not finish: " + report.tool_error
                                                      : "racecheck printed no summary: it did not run to the end." + unread;
    return location;
}

}  // namespace

FaultLocation location_from_sanitizer(const SanitizerReport& report, const std::string& kernel_file) {
    FaultLocation location;
    location.finder = FaultFinder::compute_sanitizer;
    location.tool = report.tool;
    if (report.tool == SanitizerTool::racecheck) return location_from_races(report, kernel_file, std::move(location));
    location.findings = std::max(0, report.error_count);
    // A device assert names its own file and line; the sanitizer's finding for it is inside __assertfail.
    if (report.assertion) {
        const DeviceAssertion& a = *report.assertion;
        location.line = is_kernel_file(a.file, kernel_file) ? a.line : 0;
        location.found = location.line > 0;
        location.message = "assertion `" + a.condition + "` failed in thread (" + std::to_string(a.thread[0]) + "," + std::to_string(a.thread[1]) +
                           "," + std::to_string(a.thread[2]) + ") of block (" + std::to_string(a.block[0]) + "," + std::to_string(a.block[1]) + "," +
                           std::to_string(a.block[2]) + ") at line " + std::to_string(a.line);
        return location;
    }
    if (report.first && report.tool != SanitizerTool::memcheck && !is_known_finding(*report.first, report.tool)) {
        location.problem = "compute-sanitizer's " + std::string(name_of(report.tool)) + " printed a finding in a form kplay does not know: '" +
                           report.first->kind + "'.";
        return location;
    }
    if (report.first) {
        location.message = describe_finding(*report.first);
        location.line = is_kernel_file(report.first->file, kernel_file) ? report.first->line : 0;
        location.found = location.line > 0;
        if (!location.found) location.problem = "compute-sanitizer placed it outside the kernel file: " + location.message;
        return location;
    }
    location.problem = report.error_count == 0 ? "compute-sanitizer's " + std::string(name_of(report.tool)) + " found no error in the same run."
                       : !report.tool_error.empty() ? "compute-sanitizer could not finish: " + report.tool_error
                                                    : "compute-sanitizer's output named no fault.";
    return location;
}

FaultLocation find_fault_with_sanitizer(const std::filesystem::path& cli, const RunRequest& original, const RunReport& faulted, double timeout_s,
                                        SanitizerTool tool) {
    const auto start = std::chrono::steady_clock::now();
    const ToolLookup sanitizer = find_cuda_tool(CudaTool::compute_sanitizer);
    FaultLocation location;
    location.finder = FaultFinder::compute_sanitizer;
    location.tool = tool;
    if (!sanitizer.found()) {
        location.problem = sanitizer.missing;
        return location;
    }
    const ProcessResult run = run_process(sanitizer_command(sanitizer.path, cli, original, faulted, tool), timeout_s);
    location = location_from_sanitizer(parse_sanitizer_output(run.output, tool), original.kernel_path.string());
    if (run.timed_out && !location.found) location.problem = "compute-sanitizer ran past " + std::to_string(static_cast<int>(timeout_s)) + " s and was stopped.";
    location.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return location;
}

}  // namespace kplay
