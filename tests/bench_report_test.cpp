// The bench table's CPU-side logic: percentages against the right ceiling, a stable layout, JSON.
#include <gtest/gtest.h>

#include "values/bench_report.hpp"
#include "values/verdict.hpp"
#include "kernel_file/builtin_tasks.hpp"

using namespace kplay;

namespace {
// A finished run of a built-in task, measured against a 4000 GB/s copy ceiling where its task says copy.
RunReport done(const std::string& task, double median_ms, double gbps, double gflops, bool passed) {
    RunReport r;
    r.stage = Stage::done;
    r.task = task;
    r.spec.emplace();
    r.spec->task = *find_builtin_task(task);
    r.ceiling.kind = r.spec->task.cost.ceiling;
    r.ceiling.gbps = r.ceiling.kind == CeilingKind::copy ? 4000 : 0;
    r.bytes = gbps * median_ms * 1e6;
    r.flops = gflops * median_ms * 1e6;
    r.kernel_ms.median = median_ms;
    r.kernel_ms.min = median_ms * 0.99;
    r.kernel_ms.max = median_ms * 1.02;
    r.gbps = gbps;
    r.gflops = gflops;
    r.check.passed = passed;
    r.launch.grid = {8100, 1, 1};
    r.launch.block = {256, 1, 1};
    r.kernel_ms.median = median_ms;
    apply_verdict(r);
    return r;
}

BenchSummary sample() {
    BenchSummary summary;
    summary.device = "NVIDIA H200";
    summary.copy_ceiling_gbps = 4000;
    summary.cublas_fp32_gflops = 50000;
    summary.warmup = 5;
    summary.repeat = 50;
    summary.rows.push_back({"cublas-fp32", true, done("matmul", 2.7, 0, 50000, true)});
    summary.rows.back().report.kernel = "cuBLAS SGEMM (fp32)";
    summary.rows.push_back({"cublas-tf32", true, done("matmul", 0.34, 0, 400000, true)});
    summary.rows.back().report.kernel = "cuBLAS SGEMM (TF32)";
    summary.rows.push_back({"kernels_src/grayscale/05_sixteen_pixels_uint4.cu", false, done("grayscale", 0.033, 3600, 0, true)});
    summary.rows.push_back({"kernels_src/matmul/04_2d_register_blocking.cu", false, done("matmul", 5.2, 0, 25000, false)});
    RunReport failed;
    failed.stage = Stage::compile;
    failed.error = "1 compile error\nmore";
    summary.rows.push_back({"kernels_src/matmul/broken.cu", false, failed});
    return summary;
}
}  // namespace

TEST(BenchReport, PercentagesUseTheRightCeiling) {
    const BenchSummary summary = sample();
    EXPECT_DOUBLE_EQ(bench_percent(summary, summary.rows[0]), 100.0);
    EXPECT_DOUBLE_EQ(bench_percent(summary, summary.rows[1]), 0.0);  // TF32 is its own ceiling
    EXPECT_DOUBLE_EQ(bench_percent(summary, summary.rows[2]), 90.0);  // copy bandwidth
    EXPECT_DOUBLE_EQ(bench_percent(summary, summary.rows[3]), 50.0);  // cuBLAS fp32
    BenchSummary without_cublas = summary;
    without_cublas.cublas_fp32_gflops = 0;
    EXPECT_DOUBLE_EQ(bench_percent(without_cublas, summary.rows[3]), 0.0);
}

TEST(BenchReport, TableLayoutIsFixed) {
    const std::string table = format_bench_table(sample());
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < table.size()) {
        const size_t end = table.find('\n', at);
        lines.push_back(table.substr(at, end - at));
        at = end + 1;
    }
    ASSERT_EQ(lines.size(), 8u);
    EXPECT_EQ(lines[0], "device: NVIDIA H200; copy ceiling 4000 GB/s (512 MiB, the best of the driver's copy and kplay's copy and read kernels); cuBLAS fp32 50.00 TFLOP/s");
    EXPECT_EQ(lines[1].substr(0, 7), "kernel ");
    // Every data row puts its columns at the same offsets as the header.
    const size_t median_column = lines[1].find("median ms");
    EXPECT_EQ(lines[4].substr(median_column - 1, 11), "    0.0330 ");
    EXPECT_NE(lines[4].find("grayscale/05_sixteen_pixels_uint4.cu"), std::string::npos);
    EXPECT_EQ(lines[4].find("kernels_src/"), std::string::npos);
    EXPECT_NE(lines[4].find("3600.0 GB/s"), std::string::npos);
    EXPECT_NE(lines[4].find("90.0%"), std::string::npos);
    EXPECT_NE(lines[3].find("400.00 TFLOP/s"), std::string::npos);
    EXPECT_NE(lines[5].find("50.0%  FAIL"), std::string::npos);
    EXPECT_NE(lines[6].find("FAILED at compile: 1 compile error"), std::string::npos);
    EXPECT_EQ(lines[6].find("more"), std::string::npos);
    EXPECT_EQ(format_bench_table(sample()), table);
}

TEST(BenchReport, JsonHasEveryRow) {
    const auto json = bench_json(sample());
    EXPECT_EQ(json["schema"], 1);
    ASSERT_EQ(json["rows"].size(), 5u);
    EXPECT_EQ(json["rows"][2]["percent_of"], "copy");
    EXPECT_DOUBLE_EQ(json["rows"][3]["percent"].get<double>(), 50.0);
    EXPECT_FALSE(json["rows"][4]["ok"].get<bool>());
    EXPECT_EQ(json["rows"][0]["launch"], "library");
}

// The header names the ceilings the rows are judged by, and only those.
TEST(BenchReport, TheHeaderNamesOnlyTheCeilingsUsed) {
    BenchSummary matmuls = sample();
    matmuls.copy_ceiling_gbps = 0;
    const std::string none = format_bench_table(matmuls);
    EXPECT_EQ(none.substr(0, none.find('\n')), "device: NVIDIA H200; cuBLAS fp32 50.00 TFLOP/s");

    BenchSummary both = sample();
    both.read_only_ceiling_gbps = 4400;
    const std::string two = format_bench_table(both);
    EXPECT_EQ(two.substr(0, two.find('\n')),
              "device: NVIDIA H200; copy ceiling 4000 GB/s (512 MiB, the best of the driver's copy and kplay's copy and read kernels); read-only ceiling 4400 GB/s "
              "(512 MiB read); cuBLAS fp32 50.00 TFLOP/s");
    EXPECT_DOUBLE_EQ(bench_json(both)["read_only_ceiling_gbps"].get<double>(), 4400.0);
}

// A second GEMM-like file at other sizes is judged by cuBLAS on its own inputs, not by the rows at the first one's.
TEST(BenchReport, AGemmAtOtherSizesUsesItsOwnCublasCeiling) {
    BenchSummary summary = sample();
    BenchRow small{"gemm_1024.cu", false, done("matmul", 0.4, 0, 5000, true)};
    small.report.ceiling.gflops = 34000;
    EXPECT_NEAR(bench_percent(summary, small), 100.0 * 5000 / 34000, 1e-9);
    small.report.ceiling.deferred = true;  // measured by the table's cuBLAS rows instead
    EXPECT_DOUBLE_EQ(bench_percent(summary, small), 10.0);
}

// A row per bench size ("FILE @ SIZE") and a task of several launches have longer names and launch
// texts: the columns widen so the numbers still line up.
TEST(BenchReport, LongNamesAndSeveralLaunchesKeepTheColumnsInLine) {
    BenchSummary summary = sample();
    summary.rows.resize(3);
    summary.rows.push_back({"kernels_src/softmax/04_float4_row_in_registers.cu @ 1024x32768", false, done("grayscale", 0.07, 3800, 0, true)});
    summary.rows.back().report.following = {{"scan_tile_sums", {}}, {"add_tile_offsets", {}}};
    const std::string table = format_bench_table(summary);
    std::vector<std::string> lines;
    for (size_t at = 0, end; (end = table.find('\n', at)) != std::string::npos; at = end + 1) lines.push_back(table.substr(at, end - at));
    ASSERT_GE(lines.size(), 6u);
    EXPECT_NE(lines[5].find("softmax/04_float4_row_in_registers.cu @ 1024x32768"), std::string::npos) << table;
    EXPECT_NE(lines[5].find("+2 launches"), std::string::npos) << table;
    // The check column ends every row at the same place.
    EXPECT_EQ(lines[4].rfind("PASS"), lines[5].rfind("PASS")) << table;
    // And so does the median, right-aligned under its heading.
    EXPECT_EQ(lines[4].find("0.0330") + 6, lines[5].find("0.0700") + 6) << table;
    EXPECT_EQ(lines[1].find("median ms") + 9, lines[5].find("0.0700") + 6) << table;
}

// The clocks over the table: their range when every row was steady, else the rows that moved.
TEST(BenchReport, TheClocksLineNamesTheRowsWhoseClocksMoved) {
    BenchSummary summary = sample();
    auto recorded = [](double sm_before, double sm_after, double hot) {
        return timing_conditions({ClockSample{sm_before, 3201, hot, 300, 0}, ""}, {ClockSample{sm_after, 3201, hot + 2, 320, 0}, ""});
    };
    for (auto& row : summary.rows) row.report.conditions = recorded(1980, 1980, 30);
    std::string table = format_bench_table(summary);
    EXPECT_NE(table.find("clocks: SM 1980-1980 MHz, 30-32 C over the table; steady in every row\n"), std::string::npos) << table;
    summary.rows[2].report.conditions = recorded(1980, 1755, 60);
    table = format_bench_table(summary);
    EXPECT_NE(table.find("clocks: SM 1755-1980 MHz, 30-62 C over the table; MOVED or throttled while timing "
                         "grayscale/05_sixteen_pixels_uint4.cu (their times are not comparable)\n"),
              std::string::npos)
        << table;
    for (auto& row : summary.rows) row.report.conditions = timing_conditions({std::nullopt, "NVML (libnvidia-ml.so.1) not found"}, {});
    EXPECT_NE(format_bench_table(summary).find("clocks: not recorded (NVML (libnvidia-ml.so.1) not found)\n"), std::string::npos);
}

// The vendor's peaks, where kplay knows the GPU: a line that says they are the datasheet's and a column
// beside the measured ceiling; none for a GPU not in the table.
TEST(BenchReport, TheDatasheetPeaksAreAColumnLabelledAsSuch) {
    BenchSummary summary = sample();
    summary.datasheet = datasheet_peaks("NVIDIA H200");
    ASSERT_TRUE(summary.datasheet.has_value());
    EXPECT_FALSE(datasheet_peaks("NVIDIA H200 NVL").has_value());  // matched whole: other peaks
    EXPECT_DOUBLE_EQ(bench_datasheet_percent(summary, summary.rows[2]), 75.0);                 // 3600 of 4800 GB/s
    EXPECT_NEAR(bench_datasheet_percent(summary, summary.rows[3]), 100.0 * 25000 / 67000, 1e-9);  // fp32 peak
    EXPECT_NEAR(bench_datasheet_percent(summary, summary.rows[1]), 100.0 * 400000 / 494700, 1e-9);  // TF32 row: TF32 peak
    EXPECT_DOUBLE_EQ(bench_datasheet_percent(summary, summary.rows[4]), 0.0);                   // failed
    const std::string table = format_bench_table(summary);
    EXPECT_NE(table.find("datasheet (NVIDIA's figures, not measured): H200 SXM (141 GB HBM3e): 4800 GB/s memory, 67.0 TFLOP/s fp32"),
              std::string::npos) << table;
    const size_t header = table.find("\nkernel ") + 1;
    const std::string header_line = table.substr(header, table.find('\n', header) - header);
    const size_t column = header_line.find("% datasheet");
    ASSERT_NE(column, std::string::npos);
    const size_t row = table.find("grayscale/05");
    const size_t row_start = table.rfind('\n', row) + 1;
    EXPECT_EQ(table.substr(row_start + column, 11), "      75.0%") << table;
    EXPECT_EQ(bench_json(summary)["datasheet"]["memory_gbps"].get<double>(), 4800.0);
    EXPECT_DOUBLE_EQ(bench_json(summary)["rows"][2]["datasheet_percent"].get<double>(), 75.0);
    BenchSummary unknown = sample();
    EXPECT_EQ(format_bench_table(unknown).find("datasheet"), std::string::npos);
    EXPECT_TRUE(bench_json(unknown)["datasheet"].is_null());
}

// The table over device groups: a column per group, each row's cells at the header's offsets, each
// group's percentages against its own ceilings, a failed cell's reason below the table, a group that
// stopped and a member that never came up each a line; and the same as JSON.
TEST(BenchReport, ColumnsPerGroupKeepTheirOwnCeilings) {
    BenchColumn gpu{1, "H200 sm_90", "sm_90", "local GPU 0", sample(), {}, ""};
    for (BenchRow& row : gpu.summary.rows) row.key = row.name;
    BenchColumn cpu{2, "cpu (emulated)", "", "local", {}, {"worker 1 (local) dropped out after 1 row, so the rest run on worker 2 (local): gone"},
                    "worker 2 (local) dropped out after 0 rows: gone too"};
    cpu.summary.device = "Emulated CPU (2 worker threads)";
    cpu.summary.emulated = true;
    BenchRow gray{"kernels_src/grayscale/05_sixteen_pixels_uint4.cu", false, done("grayscale", 70.5, 0.1, 0, true)};
    gray.key = gray.name;
    gray.report.emulated = true;
    cpu.summary.rows.push_back(gray);
    BenchRow matmul{"kernels_src/matmul/04_2d_register_blocking.cu", false, {}, "kernels_src/matmul/04_2d_register_blocking.cu", true};
    matmul.report.stage = Stage::worker;
    matmul.report.error = "not run: gone too";
    cpu.summary.rows.push_back(matmul);
    const std::string table = format_bench_columns({gpu, cpu}, {{"ssh:gone", "ssh: Could not resolve hostname gone"}});
    std::vector<std::string> lines;
    for (size_t at = 0, end; (end = table.find('\n', at)) != std::string::npos; at = end + 1) lines.push_back(table.substr(at, end - at));
    ASSERT_GE(lines.size(), 13u) << table;
    EXPECT_EQ(lines[1].rfind("[1] H200 sm_90: NVIDIA H200 on local GPU 0; copy ceiling 4000 GB/s", 0), 0u) << table;
    EXPECT_EQ(lines[2], "[2] cpu (emulated): Emulated CPU (2 worker threads) on local; emulated: CPU wall time, which says nothing about GPU speed");
    EXPECT_EQ(lines[3].rfind("kernel ", 0), 0u) << table;
    const size_t bar = lines[3].find(" | [2] cpu (emulated)");
    ASSERT_NE(bar, std::string::npos) << table;
    for (size_t i = 4; i < 10; ++i) EXPECT_EQ(lines[i].find(" | ", lines[i].find(" | ") + 3), bar) << lines[i];
    EXPECT_NE(lines[7].find("90.0%  PASS  | "), std::string::npos) << table;              // the GPU's copy ceiling
    EXPECT_NE(lines[7].find("0.1 GB/s       -  PASS"), std::string::npos) << table;       // none emulated
    EXPECT_NE(lines[8].find("50.0%  FAIL  | not run"), std::string::npos) << table;        // the GPU's cuBLAS
    EXPECT_NE(lines[9].find("FAILED at compile"), std::string::npos) << table;
    EXPECT_NE(table.find("\n[1] matmul/broken.cu: FAILED at compile: 1 compile error\n"), std::string::npos) << table;
    EXPECT_NE(table.find("\n[2] note: worker 1 (local) dropped out after 1 row"), std::string::npos) << table;
    EXPECT_NE(table.find("\n[2] stopped: worker 2 (local) dropped out after 0 rows: gone too\n"), std::string::npos) << table;
    EXPECT_NE(table.find("\nfailed  ssh:gone: ssh: Could not resolve hostname gone\n"), std::string::npos) << table;
    EXPECT_EQ(table.find("not run: gone too"), std::string::npos) << "a row that never ran has no reason of its own";
    const nlohmann::json json = bench_columns_json({gpu, cpu}, {{"ssh:gone", "gone"}});
    ASSERT_EQ(json["groups"].size(), 2u);
    EXPECT_EQ(json["groups"][0]["name"], "H200 sm_90");
    EXPECT_EQ(json["groups"][0]["bench"]["rows"].size(), 5u);
    EXPECT_DOUBLE_EQ(json["groups"][0]["bench"]["rows"][2]["percent"].get<double>(), 90.0);
    EXPECT_TRUE(json["groups"][1]["arch"].is_null());
    EXPECT_EQ(json["groups"][1]["failure"], "worker 2 (local) dropped out after 0 rows: gone too");
    EXPECT_TRUE(json["groups"][1]["bench"]["rows"][1]["not_run"].get<bool>());
    EXPECT_EQ(json["failed"][0]["member"], "ssh:gone");
}
