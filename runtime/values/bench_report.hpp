// The bench table: kernels beside their ceilings (copy bandwidth, cuBLAS), as text and as JSON; for one
// device, or with a column per device group (each judged by its own ceilings, never against another).
//
// Kept apart from the command so its layout and JSON are tested without a GPU.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "values/datasheet.hpp"
#include "values/run_report.hpp"

namespace kplay {

struct BenchRow {
    std::string name;        // the file as given, or the baseline's id (cublas-fp32, cublas-tf32)
    bool baseline = false;
    RunReport report;
    // The same in every group's table for one kernel at one place in its task's bench sizes, whose
    // texts differ between a GPU and the emulated device ("FILE #2"); empty: the name.
    std::string key;
    bool not_run = false;  // its group's workers had all dropped out before it: the report says why
};

struct BenchSummary {
    std::string device;
    double copy_ceiling_gbps = 0;       // the device's, as measured in this run (0 when no row needed it)
    double read_only_ceiling_gbps = 0;  // likewise, for tasks that only read (a reduction)
    double cublas_fp32_gflops = 0;  // 0 when there is no cuBLAS row
    std::string cublas_note;        // why there is none
    int warmup = 0, repeat = 0;
    bool l2_flush = true;
    bool emulated = false;          // the emulated CPU device: no ceilings, and times that say nothing of a GPU
    std::vector<BenchRow> rows;     // baselines first, then the files in the order given
    std::optional<DatasheetPeaks> datasheet;  // the vendor's peaks for this GPU, when kplay knows them
};

// The percentage a row is judged by: its task's ceiling (copy or read-only bandwidth, measured in the
// same run), or for GEMM-like tasks the cuBLAS fp32 row of this table (or, for one at other sizes, cuBLAS
// on its own inputs); 0 for the TF32 baseline, which is a different ceiling, and on the emulated device.
double bench_percent(const BenchSummary& summary, const BenchRow& row);

// The percentage of the vendor's datasheet peak: bandwidth against its memory bandwidth, flop rates
// against its fp32 peak (the cuBLAS TF32 row against its TF32 peak); 0 without a datasheet.
double bench_datasheet_percent(const BenchSummary& summary, const BenchRow& row);

// Fixed-width table; the same rows always give the same layout.
std::string format_bench_table(const BenchSummary& summary);
nlohmann::json bench_json(const BenchSummary& summary);

// One device group's bench: a column of the table over several groups.
struct BenchColumn {
    int group = 0;      // its number as `devices --pool` shows it; 0: its place among the columns
    std::string title;  // the model and compute capability, "H200 sm_90", or "cpu (emulated)"
    std::string arch;   // "sm_90"; empty for the emulated device
    std::string where;  // the worker it ran on ("local GPU 1", "gpu-box")
    BenchSummary summary;
    std::vector<std::string> notes;  // a worker that dropped out and where the rest ran
    std::string failure;             // why the group stopped before its last row (the rows it ran stay); empty: it did not
};

// A member of the pool that never came up: no group to put it in.
struct BenchAbsent {
    std::string member, message;
};

// A row per kernel (matched by key) and a column per group: median, rate, percentage of the group's own
// ceiling, check. No figure relates two columns.
std::string format_bench_columns(const std::vector<BenchColumn>& columns, const std::vector<BenchAbsent>& absent);

// The same table as values, for a view that lays it out itself (the window's compare): a row per kernel,
// a cell per group. The figures are the ones the text shows; none relates two columns.
struct BenchCell {
    enum class State { absent, not_run, failed, ran };
    State state = State::absent;  // absent: the group has no such row (cuBLAS on the emulated device)
    double median_ms = 0;
    std::string throughput;  // "812.4 GB/s", "10.3 TFLOP/s"
    std::string percent;     // "71.2%" of this group's own ceiling, "-" where none applies
    bool passed = false;
    std::string failure;  // failed: "FAILED at compile: error: ..." (its first line)
};
struct BenchGridRow {
    std::string label;  // the kernel, and its sizes where the groups' differ
    std::vector<BenchCell> cells;
};
std::vector<BenchGridRow> bench_grid(const std::vector<BenchColumn>& columns);
// A column's heading: its device, where it ran, and its own ceilings ("NVIDIA H200 on local GPU 0; copy
// ceiling 4176 GB/s ..."), and a note on cuBLAS when there is one.
std::string bench_column_heading(const BenchColumn& column);
nlohmann::json bench_columns_json(const std::vector<BenchColumn>& columns, const std::vector<BenchAbsent>& absent);

}  // namespace kplay
