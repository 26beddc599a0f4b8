// ncu twice (collect, then print the source page) over a fresh kplay-cli run, and the lines it gives.
#include "inspect/line_profiler.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "base/subprocess.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/ncu_report.hpp"
#include "inspect/profiler.hpp"

namespace kplay {

namespace fs = std::filesystem;

std::vector<std::string> ncu_source_counters_command(const fs::path& ncu, const fs::path& cli, const RunRequest& request, const RunReport& ran,
                                                     const fs::path& report_path) {
    std::vector<std::string> command{ncu.string()};
    for (auto& argument : ncu_kernel_filter(ran)) command.push_back(std::move(argument));
    command.insert(command.end(), {"--section", "SourceCounters", "--section", "WarpStateStats", "--export", report_path.string(), "--force-overwrite"});
    for (auto& argument : profiled_run_arguments(cli, request, ran)) command.push_back(std::move(argument));
    return command;
}

std::vector<std::string> ncu_source_page_command(const fs::path& ncu, const fs::path& report_path) {
    return {ncu.string(), "--import", report_path.string(), "--csv", "--page", "source", "--print-source", "sass"};
}

LineProfileOutcome profile_lines_with_ncu(const fs::path& cli, const RunRequest& request, const RunReport& ran, const Listing& sass,
                                          const std::string& kernel_file, double timeout_s) {
    const auto start = std::chrono::steady_clock::now();
    LineProfileOutcome outcome;
    auto finish = [&]() -> LineProfileOutcome {
        outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return outcome;
    };
    const ToolLookup tool = find_cuda_tool(CudaTool::ncu);
    if (!tool.found()) {
        outcome.problem = tool.missing;
        return finish();
    }
    std::error_code error;
    const fs::path report = fs::temp_directory_path(error) / ("kplay-lines-" + std::to_string(getpid()) + ".ncu-rep");
    const ProcessResult collected = run_process(ncu_source_counters_command(tool.path, cli, request, ran, report), timeout_s);
    if (collected.timed_out || !fs::exists(report)) {
        const std::string explained = explain_ncu_failure(collected.output, collected.exit_code);
        outcome.problem = collected.timed_out ? "ncu ran past " + std::to_string(static_cast<int>(timeout_s)) + " s and was stopped."
                          : !explained.empty() ? explained
                                               : "ncu wrote no report (exit code " + std::to_string(collected.exit_code) + ").";
        fs::remove(report, error);
        return finish();
    }
    const ProcessResult printed = run_process(ncu_source_page_command(tool.path, report), timeout_s);
    fs::remove(report, error);
    std::string why;
    const auto page = parse_ncu_source_csv(printed.output, &why);
    if (!page) {
        outcome.problem = "ncu's source page could not be read: " + why;
        return finish();
    }
    outcome.missing = page->missing;
    outcome.access = map_ncu_to_lines(*page, sass, kernel_file, &why);
    if (!outcome.access) outcome.problem = why;
    return finish();
}

std::vector<std::string> line_access_table(const LineAccessProfile& profile) {
    std::vector<std::string> rows;
    for (const LineAccess& line : profile.lines) {
        const std::string words = describe_line_access(line);
        if (words.empty() && line.stall_samples == 0) continue;
        char head[32];
        std::snprintf(head, sizeof head, "line %4d  ", line.line);
        std::string row = head + (words.empty() ? std::string("no memory access") : words);
        if (line.stall_samples > 0) row += "  (" + std::to_string(line.stall_samples) + " stall samples)";
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace kplay
