// Parser for Nsight Compute's CSV. The details page has one row per metric or rule:
//
//   "ID",...,"Kernel Name",...,"Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type",...
//   "0",...,"gray_uint4(...)",...,"GPU Speed Of Light Throughput","Duration","ns","3,712",
//   "0",...,"SpeedOfLight","","","","SOLBottleneck","OPT","This kernel grid is too small ...","",""
//
// (metric rows stop after the value and a trailing comma). The raw page has one row per kernel, a
// column per metric, and a row of units under the header. Both come on stdout between the program's own lines.
#include "inspect/ncu_report.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "base/text.hpp"
#include "inspect/csv_rows.hpp"

namespace kplay {

namespace {

using Row = detail::CsvRow;
using detail::csv_rows;


bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

int column(const Row& header, std::string_view name) {
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

const std::string& field(const Row& row, int index) {
    static const std::string kEmpty;
    return index >= 0 && static_cast<size_t>(index) < row.size() ? row[static_cast<size_t>(index)] : kEmpty;
}

// "3,712" -> 3712, "17.33" -> 17.33; nothing for "no data", "n/a", "" and partial numbers.
std::optional<double> number(std::string_view text) {
    std::string digits;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ',' && i > 0 && i + 1 < text.size() && text[i - 1] >= '0' && text[i - 1] <= '9' && text[i + 1] >= '0' &&
            text[i + 1] <= '9')
            continue;
        digits += c;
    }
    const std::string trimmed = trim(digits);
    if (trimmed.empty()) return std::nullopt;
    double value = 0;
    const char* end = trimmed.data() + trimmed.size();
    const auto [stop, failure] = std::from_chars(trimmed.data(), end, value);
    if (failure != std::errc() || stop != end) return std::nullopt;
    return value;
}

// Integers ncu prints as counts; anything outside int64 range or fractional is refused.
std::optional<int64_t> count(std::string_view text) {
    const auto value = number(text);
    if (!value || *value < -9.0e18 || *value > 9.0e18 || *value != static_cast<double>(static_cast<int64_t>(*value)))
        return std::nullopt;
    return static_cast<int64_t>(*value);
}

std::optional<int> small_count(std::string_view text) {
    const auto value = count(text);
    if (!value || *value < INT32_MIN || *value > INT32_MAX) return std::nullopt;
    return static_cast<int>(*value);
}

std::optional<double> nanoseconds(std::string_view value, std::string_view unit) {
    const auto amount = number(value);
    if (!amount) return std::nullopt;
    if (unit == "ns" || unit == "nsecond") return *amount;
    if (unit == "us" || unit == "usecond") return *amount * 1e3;
    if (unit == "ms" || unit == "msecond") return *amount * 1e6;
    if (unit == "s" || unit == "second") return *amount * 1e9;
    return std::nullopt;
}

void set(double& target, std::optional<double> value) {
    if (value) target = *value;
}
void set(int& target, std::optional<int> value) {
    if (value) target = *value;
}
void set(int64_t& target, std::optional<int64_t> value) {
    if (value) target = *value;
}

void read_metric(ProfileSummary& summary, const std::string& name, const std::string& unit, const std::string& value) {
    const bool percent = unit == "%";
    if (name == "Duration") set(summary.duration_ns, nanoseconds(value, unit));
    else if (name == "Compute (SM) Throughput" && percent) set(summary.sm_throughput_pct, number(value));
    else if (name == "Memory Throughput" && percent) set(summary.memory_throughput_pct, number(value));
    else if (name == "DRAM Throughput" && percent) set(summary.dram_throughput_pct, number(value));
    else if (name == "Achieved Occupancy") set(summary.achieved_occupancy_pct, number(value));
    else if (name == "Theoretical Occupancy") set(summary.theoretical_occupancy_pct, number(value));
    else if (name == "L1/TEX Hit Rate") set(summary.l1_hit_pct, number(value));
    else if (name == "L2 Hit Rate") set(summary.l2_hit_pct, number(value));
    else if (name == "Registers Per Thread") set(summary.registers_per_thread, small_count(value));
    else if (name == "Block Limit Registers") set(summary.block_limit_registers, small_count(value));
    else if (name == "Block Limit Shared Mem") set(summary.block_limit_smem, small_count(value));
    else if (name == "Block Limit Warps") set(summary.block_limit_warps, small_count(value));
    else if (name == "Block Limit SM") set(summary.block_limit_sm, small_count(value));
    else if (name == "Theoretical Active Warps per SM") set(summary.theoretical_active_warps, number(value));
    else if (name == "Shared Memory Configuration Size" && unit == "byte") set(summary.smem_config_bytes, count(value));
    else if (name == "Static Shared Memory Per Block" && unit == "byte/block") set(summary.static_smem_bytes, count(value));
    else if (name == "Dynamic Shared Memory Per Block" && unit == "byte/block") set(summary.dynamic_smem_bytes, count(value));
    else if (name == "Driver Shared Memory Per Block" && unit == "byte/block") set(summary.driver_smem_bytes, count(value));
}

std::optional<ProfileSummary> fail(std::string* error, std::string why) {
    if (error) *error = std::move(why);
    return std::nullopt;
}

}  // namespace

std::optional<ProfileSummary> parse_ncu_details_csv(const std::string& text, std::string* error) {
    if (trim(text).empty()) return fail(error, "the Nsight Compute output is empty");
    const std::vector<Row> rows = csv_rows(text);
    size_t header_at = rows.size();
    for (size_t i = 0; i < rows.size(); ++i) {
        if (column(rows[i], "Kernel Name") >= 0 && column(rows[i], "Metric Name") >= 0 && column(rows[i], "Metric Value") >= 0) {
            header_at = i;
            break;
        }
    }
    if (header_at == rows.size()) {
        if (contains(text, "No kernels were profiled"))
            return fail(error, "Nsight Compute profiled no kernel: no launch matched the kernel name");
        if (!rows.empty() && column(rows.front(), "ID") >= 0)
            return fail(error, "this is not the details page (--page details): it has no \"Metric Name\" column");
        return fail(error, "no Nsight Compute CSV table in the output (no header row with \"Metric Name\")");
    }
    const Row& header = rows[header_at];
    const int id = column(header, "ID"), kernel = column(header, "Kernel Name"), block = column(header, "Block Size"),
              grid = column(header, "Grid Size"), section = column(header, "Section Name"),
              name = column(header, "Metric Name"), unit = column(header, "Metric Unit"),
              value = column(header, "Metric Value"), rule_type = column(header, "Rule Type"),
              rule_text = column(header, "Rule Description");

    ProfileSummary summary;
    bool any = false;
    std::string first_id;
    for (size_t i = header_at + 1; i < rows.size(); ++i) {
        const Row& row = rows[i];
        // A metric row has at least the columns up to its value; shorter ones are broken or another table.
        if (row.size() <= static_cast<size_t>(std::max({kernel, name, value}))) continue;
        if (!any) {
            first_id = field(row, id);
            summary.kernel = field(row, kernel);
            summary.block = field(row, block);
            summary.grid = field(row, grid);
            any = true;
        } else if (field(row, id) != first_id) {
            continue;
        }
        const std::string& metric = field(row, name);
        if (!metric.empty()) {
            summary.metrics.push_back({field(row, section), metric, field(row, unit), field(row, value)});
            read_metric(summary, metric, field(row, unit), field(row, value));
        } else if (field(row, rule_type) == "OPT" && !field(row, rule_text).empty()) {
            summary.advice.push_back(field(row, rule_text));
        }
    }
    if (!any) return fail(error, "the Nsight Compute table has a header but no rows");
    return summary;
}

std::string explain_ncu_failure(const std::string& output, int exit_code) {
    if (contains(output, "ERR_NVGPUCTRPERM"))
        return "Nsight Compute may not read this GPU's performance counters: the driver keeps them for administrators. "
               "An admin can open them to all users with the nvidia module option NVreg_RestrictProfilingToAdminUsers=0 "
               "(a line \"options nvidia NVreg_RestrictProfilingToAdminUsers=0\" in /etc/modprobe.d/, then reload the "
               "driver or reboot), or ncu can be run as root.";
    if (exit_code == 127 || contains(output, "ncu: command not found") || contains(output, "ncu: not found") ||
        (contains(output, "ncu") && contains(output, "No such file or directory") && !contains(output, "==PROF==")))
        return "ncu (Nsight Compute) was not found: install Nsight Compute (it comes with the CUDA toolkit) and put its "
               "folder on PATH.";
    if (contains(output, "No kernels were profiled"))
        return "ncu ran the program but profiled no kernel: no launch matched the kernel name given to --kernel-name, "
               "or the program stopped before launching it.";
    // ncu's own errors are the lines it marks; the first says the most.
    for (const std::string_view line : split_lines(output))
        if (line.starts_with("==ERROR== ")) return "ncu failed: " + trim(line.substr(10));
    if (exit_code == 0) return {};
    return "ncu exited with code " + std::to_string(exit_code);
}

}  // namespace kplay
