// The two ways to the line of a GPU fault, and their reports in the same words.
#include "inspect/fault_finder.hpp"

#include <chrono>

#include "base/subprocess.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/listing.hpp"

namespace kplay {

std::string_view name_of(FaultFinder finder) {
    return finder == FaultFinder::emulated_device ? "emulated device" : "compute-sanitizer";
}

bool can_find_fault_line(const RunReport& report) { return !report.emulated && (report.sticky_fault() || report.fault.overrun); }

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

std::vector<std::string> sanitizer_command(const std::filesystem::path& sanitizer, const std::filesystem::path& cli,
                                           const RunRequest& original, const RunReport& faulted) {
    RunRequest rerun = original;
    if (!faulted.sizes.empty()) rerun.inputs.size = faulted.sizes;
    // API errors (cuFuncGetParamInfo is refused under the sanitizer, and kplay copes) would use up the
    // print limit; the first kernel findings are what is parsed.
    // Without kplay's guard zone: memcheck judges a write by the allocation's end.
    std::vector<std::string> command{"env", "KPLAY_GUARD_ZONE=0", sanitizer.string(), "--tool", "memcheck", "--report-api-errors", "no",
                                     "--print-limit", "4", "--show-backtrace", "no", cli.string()};
    for (auto& argument : rerun_arguments(rerun)) command.push_back(std::move(argument));
    for (const char* argument : {"--in-process", "--no-test-sizes", "--timeout", "60", "--no-l2-flush"}) command.emplace_back(argument);
    command.push_back("--device");
    command.push_back(std::to_string(original.device));
    return command;
}

FaultLocation location_from_sanitizer(const SanitizerReport& report, const std::string& kernel_file) {
    FaultLocation location;
    location.finder = FaultFinder::compute_sanitizer;
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
    if (report.first) {
        location.message = describe_finding(*report.first);
        location.line = is_kernel_file(report.first->file, kernel_file) ? report.first->line : 0;
        location.found = location.line > 0;
        if (!location.found) location.problem = "compute-sanitizer placed it outside the kernel file: " + location.message;
        return location;
    }
    location.problem = report.error_count == 0 ? "compute-sanitizer found no error in the same run."
                       : !report.tool_error.empty() ? "compute-sanitizer could not finish: " + report.tool_error
                                                    : "compute-sanitizer's output named no fault.";
    return location;
}

FaultLocation find_fault_with_sanitizer(const std::filesystem::path& cli, const RunRequest& original, const RunReport& faulted, double timeout_s) {
    const auto start = std::chrono::steady_clock::now();
    const ToolLookup tool = find_cuda_tool(CudaTool::compute_sanitizer);
    FaultLocation location;
    location.finder = FaultFinder::compute_sanitizer;
    if (!tool.found()) {
        location.problem = tool.missing;
        return location;
    }
    const ProcessResult run = run_process(sanitizer_command(tool.path, cli, original, faulted), timeout_s);
    location = location_from_sanitizer(parse_sanitizer_output(run.output), original.kernel_path.string());
    if (run.timed_out && !location.found) location.problem = "compute-sanitizer ran past " + std::to_string(static_cast<int>(timeout_s)) + " s and was stopped.";
    location.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return location;
}

}  // namespace kplay
