// Text and JSON forms of a bench run.
#include "client/bench_report.hpp"

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

std::string format_bench_table(const BenchSummary& summary) {
    std::string out;
    char line[512];
    if (summary.emulated)
        std::snprintf(line, sizeof line, "device: %s; emulated: these times are CPU wall time and say nothing about GPU speed",
                      summary.device.c_str());
    else
        std::snprintf(line, sizeof line, "device: %s", summary.device.c_str());
    out += line;
    // Only the ceilings some row is judged by: a table of matmuls names no bandwidth it never measured.
    if (!summary.emulated && summary.copy_ceiling_gbps > 0) {
        std::snprintf(line, sizeof line, "; copy ceiling %.0f GB/s (512 MiB device-to-device, measured now)", summary.copy_ceiling_gbps);
        out += line;
    }
    if (!summary.emulated && summary.read_only_ceiling_gbps > 0) {
        std::snprintf(line, sizeof line, "; read-only ceiling %.0f GB/s (512 MiB read, measured now)", summary.read_only_ceiling_gbps);
        out += line;
    }
    if (summary.cublas_fp32_gflops > 0) {
        std::snprintf(line, sizeof line, "; cuBLAS fp32 %.2f TFLOP/s", summary.cublas_fp32_gflops / 1000);
        out += line;
    }
    out += "\n";
    if (!summary.cublas_note.empty()) out += "note: " + summary.cublas_note + "\n";
    // The name and launch columns are as wide as their longest entry (a row per bench size, "FILE @ SIZE",
    // or a task of several launches), so the numbers stay in line.
    int name_width = 44, launch_width = 32;
    for (const BenchRow& row : summary.rows) {
        name_width = std::max(name_width, static_cast<int>(display_name(row).size()));
        if (row.report.ok()) launch_width = std::max(launch_width, static_cast<int>(launch_text(row).size()));
    }
    std::snprintf(line, sizeof line, "%-*s %-*s %10s %21s %14s %9s  %s\n", name_width, "kernel", launch_width, "launch", "median ms",
                  "(min - max)", "throughput", "% ceiling", "check");
    out += line;
    for (const BenchRow& row : summary.rows) {
        const RunReport& r = row.report;
        if (!r.ok()) {
            std::snprintf(line, sizeof line, "%-*s FAILED at %s: %s\n", name_width, display_name(row).c_str(), stage_name(r.stage),
                          r.error.substr(0, r.error.find('\n')).c_str());
            out += line;
            continue;
        }
        char range[48], percent[16];
        std::snprintf(range, sizeof range, "(%.4f - %.4f)", r.kernel_ms.min, r.kernel_ms.max);
        const double p = bench_percent(summary, row);
        std::snprintf(percent, sizeof percent, p > 0 ? "%.1f%%" : "-", p);
        std::snprintf(line, sizeof line, "%-*s %-*s %10.4f %21s %14s %9s  %s\n", name_width, display_name(row).c_str(), launch_width,
                      launch_text(row).c_str(), r.kernel_ms.median, range, throughput(r).c_str(), percent, r.check.passed ? "PASS" : "FAIL");
        out += line;
    }
    if (summary.emulated)
        std::snprintf(line, sizeof line, "2 checked launches each (median), threads as fibers on the CPU's cores\n");
    else
        std::snprintf(line, sizeof line, "%d warm-up and %d timed launches each%s; inputs that fit in L2 rotate through copies\n",
                      summary.warmup, summary.repeat, summary.l2_flush ? ", L2 flushed (by reading) before each" : "");
    out += line;
    return out;
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
                        {"input_copies", r.input_copies}});
    }
    return {{"schema", 1}, {"device", summary.device}, {"copy_ceiling_gbps", summary.copy_ceiling_gbps},
            {"read_only_ceiling_gbps", summary.read_only_ceiling_gbps},             {"cublas_fp32_gflops", summary.cublas_fp32_gflops}, {"cublas_note", summary.cublas_note}, {"warmup", summary.warmup},
            {"repeat", summary.repeat}, {"l2_flush", summary.l2_flush}, {"emulated", summary.emulated}, {"rows", rows}};
}

}  // namespace kplay
