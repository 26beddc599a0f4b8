// Nsight Compute's CSV (--csv --page details, and --page raw for stall reasons), one kernel, in plain numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kplay {

struct StallReason { std::string name; double cycles_per_issue = 0; };  // name in plain words: "long scoreboard"

struct NcuMetric { std::string section, name, unit, value; };  // one details row, as printed

struct ProfileSummary {
    std::string kernel, grid, block;  // grid and block as ncu prints them: "(250, 1, 1)"
    double duration_ns = -1, sm_throughput_pct = -1, memory_throughput_pct = -1, dram_throughput_pct = -1;
    double achieved_occupancy_pct = -1, theoretical_occupancy_pct = -1, l1_hit_pct = -1, l2_hit_pct = -1;
    int registers_per_thread = -1;
    std::vector<StallReason> top_stalls;   // at most 3, largest first (profiler.hpp: add_stalls_from_details)
    std::vector<std::string> advice;       // the rule descriptions of type OPT, in order
    // The Occupancy and Launch Statistics sections (-1 when absent), to compare with estimate_occupancy:
    int block_limit_registers = -1, block_limit_smem = -1, block_limit_warps = -1, block_limit_sm = -1;
    double theoretical_active_warps = -1;
    int64_t smem_config_bytes = -1;        // "Shared Memory Configuration Size": the carveout the driver chose
    int64_t static_smem_bytes = -1, dynamic_smem_bytes = -1, driver_smem_bytes = -1;
    std::vector<NcuMetric> metrics;        // every metric row of the kernel, in order
};

// Lines that are not CSV rows (the profiled program's own output, ==PROF== lines) are skipped. Numbers
// use thousands separators ("3,712"). Nothing for an empty or unreadable table (error says why). With
// several kernels in the table, the first one's rows are read.
std::optional<ProfileSummary> parse_ncu_details_csv(const std::string& text, std::string* error = nullptr);

// Plain words for a failed ncu run: ERR_NVGPUCTRPERM (no permission for performance counters: what the
// admin must set, NVreg_RestrictProfilingToAdminUsers=0, or run as root), no kernel matched, ncu missing.
// Empty when exit_code is 0 and the output shows no problem.
std::string explain_ncu_failure(const std::string& output, int exit_code);

}  // namespace kplay
