// The run history: what an entry records, how many are kept, and the figures that join an entry later
// (registers and spills from its inspection, its share of a cuBLAS ceiling measured after it, latency).
#include "session/run_history.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

RunReport good_run(const std::string& kernel, const std::string& sizes = "64x64x64") {
    RunReport report;
    report.stage = Stage::done;
    report.task = "matmul";
    report.kernel = kernel;
    report.sizes = sizes;
    report.launch.grid = {4, 4, 1};
    report.launch.block = {16, 16, 1};
    report.kernel_ms = {20, 1.5, 1.25, 2.0};
    report.gflops = 2000;
    report.percent_of_ceiling = 10;
    report.compile.compile_ms = 30;
    report.check.passed = true;
    return report;
}

RunReport awaiting_cublas(const std::string& kernel, const std::string& sizes) {
    RunReport report = good_run(kernel, sizes);
    report.ceiling.kind = CeilingKind::cublas;
    report.ceiling.deferred = true;
    report.percent_of_ceiling = 0;
    return report;
}

}  // namespace

TEST(RunHistory, AnEntryHoldsTheRunsFigures) {
    RunHistory history;
    EXPECT_EQ(history.newest_run(), 0);
    history.record(good_run("k"), "0123456789abcdef", 12.5, false);
    history.record(good_run("k2"), "fedcba9876543210", 3, true);
    ASSERT_EQ(history.size(), 2);
    const HistoryEntry& first = history.entries()[0];
    EXPECT_EQ(first.run, 1);
    EXPECT_EQ(first.source_hash, "01234567");
    EXPECT_EQ(first.time_of_day.size(), 8u);  // HH:MM:SS
    EXPECT_EQ(first.kernel, "k");
    EXPECT_EQ(first.launch, "grid 4,4,1 block 16,16,1");
    EXPECT_DOUBLE_EQ(first.median_ms, 1.5);
    EXPECT_DOUBLE_EQ(first.min_ms, 1.25);
    EXPECT_DOUBLE_EQ(first.max_ms, 2.0);
    EXPECT_DOUBLE_EQ(first.compile_ms, 30);
    EXPECT_DOUBLE_EQ(first.worker_ms, 12.5);
    EXPECT_TRUE(first.passed);
    EXPECT_FALSE(first.reused);
    EXPECT_FALSE(first.ceiling_pending);
    EXPECT_LT(first.latency_ms, 0) << "not known until the frame that shows it";
    EXPECT_EQ(first.registers, -1);
    EXPECT_TRUE(history.entries()[1].reused);
    EXPECT_EQ(history.newest_run(), 2);

    history.set_newest_latency(42);
    EXPECT_DOUBLE_EQ(history.entries()[1].latency_ms, 42);
    EXPECT_LT(history.entries()[0].latency_ms, 0);
}

TEST(RunHistory, KeepsTheNewestRuns) {
    RunHistory history;
    history.set_newest_latency(1);  // nothing to set yet
    for (size_t i = 0; i < RunHistory::kRecent + 5; ++i)
        history.record(good_run("k" + std::to_string(i)), "", 0, false);
    ASSERT_EQ(history.size(), static_cast<int>(RunHistory::kRecent));
    EXPECT_EQ(history.entries().front().kernel, "k5");
    EXPECT_EQ(history.entries().back().kernel, "k" + std::to_string(RunHistory::kRecent + 4));
}

TEST(RunHistory, RegistersAndSpillsJoinTheirRunsEntry) {
    RunHistory history;
    history.record(good_run("a"), "", 0, false);
    history.record(good_run("b"), "", 0, false);
    PtxasResources first, second, unknown;
    first.registers = 32;
    second.registers = 40;
    second.spill_store_bytes = 8;
    second.spill_load_bytes = 16;
    unknown.registers = 99;
    history.fill_resources({{0, unknown}, {1, first}, {2, second}, {3, unknown}});  // 0: a failed run's
    EXPECT_EQ(history.entries()[0].registers, 32);
    EXPECT_EQ(history.entries()[0].spill_bytes, 0);
    EXPECT_EQ(history.entries()[1].registers, 40);
    EXPECT_EQ(history.entries()[1].spill_bytes, 24);
}

TEST(RunHistory, ACeilingMeasuredLaterGivesTheRunsAtThoseSizesTheirShare) {
    RunHistory history;
    history.record(awaiting_cublas("a", "1024x1024x1024"), "", 0, false);
    history.record(awaiting_cublas("b", "512x512x512"), "", 0, false);
    history.record(good_run("c", "1024x1024x1024"), "", 0, false);  // its ceiling was not deferred
    RunReport emulated = awaiting_cublas("d", "1024x1024x1024");
    emulated.emulated = true;  // no cuBLAS on the emulated device: nothing to wait for
    history.record(emulated, "", 0, false);
    EXPECT_TRUE(history.entries()[0].ceiling_pending);
    EXPECT_TRUE(history.entries()[1].ceiling_pending);
    EXPECT_FALSE(history.entries()[3].ceiling_pending);

    history.fill_ceiling("matmul", "1024x1024x1024", 4000);
    EXPECT_FALSE(history.entries()[0].ceiling_pending);
    EXPECT_DOUBLE_EQ(history.entries()[0].percent_of_ceiling, 50);
    EXPECT_TRUE(history.entries()[1].ceiling_pending) << "other sizes wait for their own";
    EXPECT_DOUBLE_EQ(history.entries()[2].percent_of_ceiling, 10) << "not waiting: left as it was";

    history.fill_ceiling("matmul", "512x512x512", -1);  // cuBLAS could not run
    EXPECT_FALSE(history.entries()[1].ceiling_pending);
    EXPECT_DOUBLE_EQ(history.entries()[1].percent_of_ceiling, 0);
}
