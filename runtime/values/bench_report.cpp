// Text and JSON forms of a bench run.
#include "values/bench_report.hpp"

#include <algorithm>
#include <cstdio>

namespace kplay {

namespace {

std::string display_name(const BenchRow& row) {
    std::string name = row.baseline ? row.report.kernel : row.name;
    const auto at = name.find("kernels_src/");
    if (at != std::string::npos) name = name.substr(at + 12);
    return name;
}

std::string launch_text(const BenchRow& row) {
    if (row.baseline) return "library";
    std::string text = "grid " + row.report.launch.grid.text() + " block " + row.report.launch.block.text();
    if (!row.report.following.empty()) text += " +" + std::to_string(row.report.following.size()) + " launches";
    return text;
}

bool counts_flops(const RunReport& r) { return r.spec && r.spec->task.presentation.rate == RateUnit::flops; }

std::string throughput(const RunReport& r) {
    char text[48];
    if (counts_flops(r) && r.emulated) std::snprintf(text, sizeof text, "%.2f GFLOP/s", r.gflops);
    else if (counts_flops(r)) std::snprintf(text, sizeof text, "%.2f TFLOP/s", r.gflops / 1000);
    else std::snprintf(text, sizeof text, "%.1f GB/s", r.gbps);
    return text;
}

// The clocks over the whole table, and the rows whose clocks moved or throttled while they were timed.
std::string clocks_line(const BenchSummary& summary) {
    double sm_low = 1e9, sm_high = 0, hot_low = 1e9, hot_high = 0;
    std::vector<std::string> moved;
    std::string why_not;
    for (const BenchRow& row : summary.rows) {
        const TimingConditions& c = row.report.conditions;
        if (!row.report.ok()) continue;
        if (!c.recorded) {
            if (why_not.empty()) why_not = c.why_not;
            continue;
        }
        for (const ClockSample* s : {&c.before, &c.after}) {
            sm_low = std::min(sm_low, s->sm_mhz), sm_high = std::max(sm_high, s->sm_mhz);
            hot_low = std::min(hot_low, s->temperature_c), hot_high = std::max(hot_high, s->temperature_c);
        }
        if (c.moved) moved.push_back(display_name(row));
    }
    if (sm_high == 0) return why_not.empty() ? "" : "clocks: not recorded (" + why_not + ")\n";
    char line[160];
    std::snprintf(line, sizeof line, "clocks: SM %.0f-%.0f MHz, %.0f-%.0f C over the table", sm_low, sm_high, hot_low, hot_high);
    std::string out = line;
    if (moved.empty()) return out + "; steady in every row\n";
    out += "; MOVED or throttled while timing ";
    for (size_t i = 0; i < moved.size(); ++i) out += (i ? ", " : "") + moved[i];
    return out + " (their times are not comparable)\n";
}

}  // namespace

double bench_percent(const BenchSummary& summary, const BenchRow& row) {
    const RunReport& r = row.report;
    if (summary.emulated || (row.baseline && r.ceiling.kind == CeilingKind::cublas && row.name == baseline_name(Baseline::cublas_tf32)))
        return 0;
    // A GEMM-like file at other sizes than the cuBLAS rows measured cuBLAS on its own inputs.
    if (r.ceiling.kind == CeilingKind::cublas && !row.baseline && !r.ceiling.deferred && r.ceiling.gflops > 0)
        return 100 * r.gflops / r.ceiling.gflops;
    if (r.ceiling.kind == CeilingKind::cublas)
        return summary.cublas_fp32_gflops > 0 ? 100 * r.gflops / summary.cublas_fp32_gflops : 0;
    return r.percent_of_ceiling;
}

double bench_datasheet_percent(const BenchSummary& summary, const BenchRow& row) {
    const RunReport& r = row.report;
    if (!summary.datasheet || summary.emulated || !r.ok()) return 0;
    const DatasheetPeaks& peaks = *summary.datasheet;
    if (row.baseline && row.name == baseline_name(Baseline::cublas_tf32)) return 100 * r.gflops / peaks.tf32_gflops;
    if (counts_flops(r) || r.ceiling.kind == CeilingKind::cublas) return 100 * r.gflops / peaks.fp32_gflops;
    return r.gbps > 0 ? 100 * r.gbps / peaks.memory_gbps : 0;
}

namespace {

// "datasheet (...): H200 SXM (141 GB HBM3e): 4800 GB/s memory, ..." (the vendor's figures, not measured).
std::string datasheet_line(const BenchSummary& summary) {
    if (summary.emulated || !summary.datasheet) return "";
    const DatasheetPeaks& p = *summary.datasheet;
    char line[320];
    std::snprintf(line, sizeof line,
                  "datasheet (NVIDIA's figures, not measured): %s: %.0f GB/s memory, %.1f TFLOP/s fp32, %.1f TFLOP/s TF32 dense; "
                  "\"%% datasheet\" is bandwidth against the first, flop rates against fp32 (the cuBLAS TF32 row against TF32)\n",
                  p.product.c_str(), p.memory_gbps, p.fp32_gflops / 1000, p.tf32_gflops / 1000);
    return line;
}

// The ceilings some row is judged by, each after "; ": a table of matmuls names no bandwidth it never measured.
std::string ceilings_text(const BenchSummary& summary) {
    std::string out;
    char line[256];
    if (!summary.emulated && summary.copy_ceiling_gbps > 0) {
        std::snprintf(line, sizeof line, "; copy ceiling %.0f GB/s (512 MiB, the best of the driver's copy and kplay's copy and read kernels)", summary.copy_ceiling_gbps);
        out += line;
    }
    if (!summary.emulated && summary.read_only_ceiling_gbps > 0) {
        std::snprintf(line, sizeof line, "; read-only ceiling %.0f GB/s (512 MiB read)", summary.read_only_ceiling_gbps);
        out += line;
    }
    if (summary.cublas_fp32_gflops > 0) {
        std::snprintf(line, sizeof line, "; cuBLAS fp32 %.2f TFLOP/s", summary.cublas_fp32_gflops / 1000);
        out += line;
    }
    return out;
}

// How each row was timed.
std::string repeats_line(const BenchSummary& summary) {
    char line[256];
    if (summary.emulated)
        std::snprintf(line, sizeof line, "2 checked launches each (median), threads as fibers on the CPU's cores\n");
    else
        std::snprintf(line, sizeof line, "%d warm-up and %d timed launches each%s; inputs that fit in L2 rotate through copies\n",
                      summary.warmup, summary.repeat, summary.l2_flush ? ", L2 flushed (by reading) before each" : "");
    return line;
}

std::string percent_text(const BenchSummary& summary, const BenchRow& row) {
    char percent[16];
    const double p = bench_percent(summary, row);
    std::snprintf(percent, sizeof percent, p > 0 ? "%.1f%%" : "-", p);
    return percent;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::string format_bench_table(const BenchSummary& summary) {
    std::string out;
    char line[512];
    if (summary.emulated)
        std::snprintf(line, sizeof line, "device: %s; emulated: these times are CPU wall time and say nothing about GPU speed",
                      summary.device.c_str());
    else
        std::snprintf(line, sizeof line, "device: %s", summary.device.c_str());
    out += line + ceilings_text(summary) + "\n";
    if (!summary.cublas_note.empty()) out += "note: " + summary.cublas_note + "\n";
    out += datasheet_line(summary);
    const bool datasheet_column = !summary.emulated && summary.datasheet.has_value();
    // The name and launch columns are as wide as their longest entry (a row per bench size, "FILE @ SIZE",
    // or a task of several launches), so the numbers stay in line.
    int name_width = 44, launch_width = 32;
    for (const BenchRow& row : summary.rows) {
        name_width = std::max(name_width, static_cast<int>(display_name(row).size()));
        if (row.report.ok()) launch_width = std::max(launch_width, static_cast<int>(launch_text(row).size()));
    }
    std::snprintf(line, sizeof line, "%-*s %-*s %10s %21s %14s %9s%s  %s\n", name_width, "kernel", launch_width, "launch", "median ms",
                  "(min - max)", "throughput", "% ceiling", datasheet_column ? " % datasheet" : "", "check");
    out += line;
    for (const BenchRow& row : summary.rows) {
        const RunReport& r = row.report;
        if (!r.ok()) {
            std::snprintf(line, sizeof line, "%-*s FAILED at %s: %s\n", name_width, display_name(row).c_str(), stage_label(r.stage),
                          first_line(r.error).c_str());
            out += line;
            continue;
        }
        char range[48], datasheet[24] = "";
        std::snprintf(range, sizeof range, "(%.4f - %.4f)", r.kernel_ms.min, r.kernel_ms.max);
        if (datasheet_column) {
            const double d = bench_datasheet_percent(summary, row);
            if (d > 0) std::snprintf(datasheet, sizeof datasheet, " %10.1f%%", d);
            else std::snprintf(datasheet, sizeof datasheet, " %11s", "-");
        }
        std::snprintf(line, sizeof line, "%-*s %-*s %10.4f %21s %14s %9s%s  %s\n", name_width, display_name(row).c_str(), launch_width,
                      launch_text(row).c_str(), r.kernel_ms.median, range, throughput(r).c_str(), percent_text(summary, row).c_str(), datasheet,
                      r.check.passed ? "PASS" : "FAIL");
        out += line;
    }
    if (!summary.emulated) out += clocks_line(summary);
    return out + repeats_line(summary);
}

nlohmann::json bench_json(const BenchSummary& summary) {
    nlohmann::json rows = nlohmann::json::array();
    for (const BenchRow& row : summary.rows) {
        const RunReport& r = row.report;
        rows.push_back({{"name", display_name(row)}, {"baseline", row.baseline}, {"task", r.task}, {"launch", launch_text(row)},
                        {"ok", r.ok()}, {"stage", stage_name(r.stage)}, {"error", r.error}, {"median_ms", r.kernel_ms.median},
                        {"min_ms", r.kernel_ms.min}, {"max_ms", r.kernel_ms.max}, {"gbps", r.gbps}, {"gflops", r.gflops},
                        {"percent_of", r.ceiling.kind == CeilingKind::cublas ? "cublas_fp32" : spec_name(r.ceiling.kind)}, {"percent", bench_percent(summary, row)},
                        {"passed", r.check.passed}, {"check", r.check.summary}, {"input", r.input_description},
                        {"input_copies", r.input_copies}, {"datasheet_percent", bench_datasheet_percent(summary, row)},
                        {"not_run", row.not_run}});
    }
    nlohmann::json datasheet = nullptr;
    if (summary.datasheet)
        datasheet = {{"product", summary.datasheet->product}, {"memory_gbps", summary.datasheet->memory_gbps},
                     {"fp32_gflops", summary.datasheet->fp32_gflops}, {"tf32_gflops", summary.datasheet->tf32_gflops}};
    return {{"schema", 1}, {"device", summary.device}, {"copy_ceiling_gbps", summary.copy_ceiling_gbps},
            {"read_only_ceiling_gbps", summary.read_only_ceiling_gbps}, {"cublas_fp32_gflops", summary.cublas_fp32_gflops},
            {"cublas_note", summary.cublas_note}, {"warmup", summary.warmup}, {"repeat", summary.repeat}, {"l2_flush", summary.l2_flush},
            {"emulated", summary.emulated}, {"datasheet", datasheet}, {"rows", rows}};
}

namespace {

constexpr int kCellWidth = 40;  // a group's cell: median, rate, percentage of its ceiling, check

const std::string& key_of(const BenchRow& row) { return row.key.empty() ? row.name : row.key; }

const BenchRow* row_with(const BenchColumn& column, const std::string& key) {
    for (const BenchRow& row : column.summary.rows)
        if (key_of(row) == key) return &row;
    return nullptr;
}

// Every key once, in the order the columns first have it (baselines of a GPU group first).
std::vector<std::string> row_keys(const std::vector<BenchColumn>& columns) {
    std::vector<std::string> keys;
    for (const BenchColumn& column : columns)
        for (const BenchRow& row : column.summary.rows)
            if (std::find(keys.begin(), keys.end(), key_of(row)) == keys.end()) keys.push_back(key_of(row));
    return keys;
}

// The row's name as the first column that has it says it, and after an "@" each column's size where a
// task has several bench sizes or the groups' sizes differ (the emulated device's smaller one):
// "grayscale/01_seed_1d.cu @ 7680x4320 / 1920x1080".
std::string row_label(const std::vector<BenchColumn>& columns, const std::string& key) {
    std::string label;
    std::vector<std::string> sizes;
    bool several = false;
    for (const BenchColumn& column : columns) {
        const BenchRow* row = row_with(column, key);
        if (!row) continue;
        const std::string name = display_name(*row);
        several = several || name.find(" @ ") != std::string::npos;
        if (label.empty()) label = name.substr(0, name.find(" @ "));
        const std::string& size = row->report.sizes;
        if (!size.empty() && std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
    }
    if ((several || sizes.size() > 1) && !sizes.empty()) {
        label += " @ ";
        for (size_t i = 0; i < sizes.size(); ++i) label += (i ? " / " : "") + sizes[i];
    }
    return label;
}

BenchCell cell_of(const BenchColumn& column, const BenchRow* row) {
    BenchCell cell;
    if (!row) return cell;
    if (row->not_run) {
        cell.state = BenchCell::State::not_run;
    } else if (!row->report.ok()) {
        cell.state = BenchCell::State::failed;
        cell.failure = "FAILED at " + std::string(stage_label(row->report.stage)) + ": " + first_line(row->report.error);
    } else {
        cell.state = BenchCell::State::ran;
        cell.median_ms = row->report.kernel_ms.median;
        cell.throughput = throughput(row->report);
        cell.percent = percent_text(column.summary, *row);
        cell.passed = row->report.check.passed;
    }
    return cell;
}

std::string cell_text(const BenchColumn& column, const BenchRow* row) {
    char text[160];
    const BenchCell cell = cell_of(column, row);
    // Absent: the group has no such row (cuBLAS on the emulated device, a GPU's second bench size).
    if (cell.state == BenchCell::State::absent || cell.state == BenchCell::State::not_run)
        std::snprintf(text, sizeof text, "%-*s", kCellWidth, row ? "not run" : "-");
    else if (cell.state == BenchCell::State::failed)
        std::snprintf(text, sizeof text, "%-*s", kCellWidth, ("FAILED at " + std::string(stage_label(row->report.stage))).c_str());
    else
        std::snprintf(text, sizeof text, "%10.4f %14s %7s  %-5s", cell.median_ms, cell.throughput.c_str(), cell.percent.c_str(),
                      cell.passed ? "PASS" : "FAIL");
    return text;
}

std::string group_tag(const std::vector<BenchColumn>& columns, size_t index) {
    return "[" + std::to_string(columns[index].group > 0 ? columns[index].group : static_cast<int>(index) + 1) + "]";
}

// "H200 sm_90: NVIDIA H200 on local GPU 0; copy ceiling 4176 GB/s ...", and its note.
std::string column_heading(const BenchColumn& column) {
    const BenchSummary& summary = column.summary;
    std::string out = column.title + ": " + (summary.device.empty() ? "(no answer)" : summary.device);
    if (!column.where.empty()) out += " on " + column.where;
    if (summary.emulated) out += "; emulated: CPU wall time, which says nothing about GPU speed";
    out += ceilings_text(summary) + "\n";
    if (!summary.cublas_note.empty()) out += "    note: " + summary.cublas_note + "\n";
    return out;
}

// "[1] H200 sm_90: ...".
std::string column_header(const std::vector<BenchColumn>& columns, size_t index) {
    return group_tag(columns, index) + " " + column_heading(columns[index]);
}

}  // namespace

std::string format_bench_columns(const std::vector<BenchColumn>& columns, const std::vector<BenchAbsent>& absent) {
    std::string out = "bench on " + std::to_string(columns.size()) + " device group" + (columns.size() == 1 ? "" : "s") +
                      ": each column against its own group's ceilings and cuBLAS; times are never compared across columns\n";
    for (size_t i = 0; i < columns.size(); ++i) out += column_header(columns, i);
    const std::vector<std::string> keys = row_keys(columns);
    std::vector<std::string> labels;
    int name_width = 44;
    for (const std::string& key : keys) {
        labels.push_back(row_label(columns, key));
        name_width = std::max(name_width, static_cast<int>(labels.back().size()));
    }
    char line[256];
    std::string titles, headings;
    for (size_t i = 0; i < columns.size(); ++i) {
        std::snprintf(line, sizeof line, " | %-*s", kCellWidth, (group_tag(columns, i) + " " + columns[i].title).substr(0, kCellWidth).c_str());
        titles += line;
        std::snprintf(line, sizeof line, " | %10s %14s %7s  %-5s", "median ms", "throughput", "% ceil", "check");
        headings += line;
    }
    std::snprintf(line, sizeof line, "%-*s", name_width, "kernel");
    titles.erase(titles.find_last_not_of(' ') + 1);
    out += line + titles + "\n" + std::string(name_width, ' ') + headings + "\n";
    std::string failures;
    for (size_t k = 0; k < keys.size(); ++k) {
        std::snprintf(line, sizeof line, "%-*s", name_width, labels[k].c_str());
        out += line;
        for (size_t i = 0; i < columns.size(); ++i) {
            const BenchRow* row = row_with(columns[i], keys[k]);
            out += " | " + cell_text(columns[i], row);
            if (row && !row->report.ok() && !row->not_run)
                failures += group_tag(columns, i) + " " + labels[k] + ": FAILED at " + stage_label(row->report.stage) + ": " +
                            first_line(row->report.error) + "\n";
        }
        // The last cell's padding is not part of the table.
        out.erase(out.find_last_not_of(' ') + 1);
        out += "\n";
    }
    out += failures;
    for (size_t i = 0; i < columns.size(); ++i) {
        const BenchColumn& column = columns[i];
        for (const std::string& note : column.notes) out += group_tag(columns, i) + " note: " + note + "\n";
        if (!column.failure.empty()) out += group_tag(columns, i) + " stopped: " + column.failure + "\n";
        if (!column.summary.emulated) {
            const std::string clocks = clocks_line(column.summary);
            if (!clocks.empty()) out += group_tag(columns, i) + " " + clocks;
        }
        if (!column.summary.rows.empty()) out += group_tag(columns, i) + " " + repeats_line(column.summary);
    }
    for (const BenchAbsent& member : absent) out += "failed  " + member.member + ": " + member.message + "\n";
    return out;
}

nlohmann::json bench_columns_json(const std::vector<BenchColumn>& columns, const std::vector<BenchAbsent>& absent) {
    nlohmann::json groups = nlohmann::json::array(), failed = nlohmann::json::array();
    for (size_t i = 0; i < columns.size(); ++i) {
        const BenchColumn& column = columns[i];
        groups.push_back({{"group", column.group > 0 ? column.group : static_cast<int>(i) + 1},
                          {"name", column.title},
                          {"emulated", column.summary.emulated},
                          {"arch", column.arch.empty() ? nlohmann::json(nullptr) : nlohmann::json(column.arch)},
                          {"where", column.where},
                          {"notes", column.notes},
                          {"failure", column.failure},
                          {"bench", bench_json(column.summary)}});
    }
    for (const BenchAbsent& member : absent) failed.push_back({{"member", member.member}, {"message", member.message}});
    return {{"schema", 1}, {"groups", groups}, {"failed", failed}};
}

std::vector<BenchGridRow> bench_grid(const std::vector<BenchColumn>& columns) {
    std::vector<BenchGridRow> grid;
    for (const std::string& key : row_keys(columns)) {
        BenchGridRow row{row_label(columns, key), {}};
        for (const BenchColumn& column : columns) row.cells.push_back(cell_of(column, row_with(column, key)));
        grid.push_back(std::move(row));
    }
    return grid;
}

std::string bench_column_heading(const BenchColumn& column) { return column_heading(column); }

}  // namespace kplay
