// Nsight Compute's per-instruction counters of one launch, on the kernel's lines: ncu collects the
// SourceCounters section into a report (`--export`), prints that report's SASS source page as CSV
// (`--import ... --page source --print-source sass --csv`), and the page is mapped to lines through
// kplay's own SASS listing of the same build (ncu_line_access.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "inspect/listing.hpp"
#include "inspect/ncu_line_access.hpp"

namespace kplay {

struct LineProfileOutcome {
    std::optional<NcuLineAccess> access;
    std::vector<std::string> missing;  // counters ncu's page lacked (shown as absent, not as zero)
    std::string problem;               // why there is nothing, in plain words
    double seconds = 0;
};

// ncu collecting SourceCounters (and the warp state sampling it reads) for the kernel's launch into `report_path`.
std::vector<std::string> ncu_source_counters_command(const std::filesystem::path& ncu, const std::filesystem::path& cli, const RunRequest& request,
                                                     const RunReport& ran, const std::filesystem::path& report_path);
// ncu printing that report's SASS source page as CSV.
std::vector<std::string> ncu_source_page_command(const std::filesystem::path& ncu, const std::filesystem::path& report_path);

// Runs both, blocking (at most timeout_s in all). `ran` is a finished GPU run of the same request;
// `sass` kplay's listing of the kernel's function in that build; `kernel_file` names the lines.
LineProfileOutcome profile_lines_with_ncu(const std::filesystem::path& cli, const RunRequest& request, const RunReport& ran, const Listing& sass,
                                          const std::string& kernel_file, double timeout_s = 300);

// The per-line table for the CLI: "  line   27  stores 32 sectors/request, 8x the ideal: uncoalesced  (812 stall samples)",
// lines with memory accesses or stall samples only, in line order.
std::vector<std::string> line_access_table(const LineAccessProfile& profile);

}  // namespace kplay
