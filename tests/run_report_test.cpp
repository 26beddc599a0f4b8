// A report's values read the same everywhere: how far a run got (reached), and its verdict against a
// ceiling the worker measured, or one the window measured later (settle_library_ceiling).
#include "values/run_report.hpp"

#include <gtest/gtest.h>

#include "values/verdict.hpp"

namespace kplay {
namespace {

TEST(Reached, AStageAndEveryOneAfterItUpToDone) {
    RunReport report;
    report.stage = Stage::launch;
    EXPECT_TRUE(reached(report, Stage::source));
    EXPECT_TRUE(reached(report, Stage::load));
    EXPECT_TRUE(reached(report, Stage::launch));
    EXPECT_FALSE(reached(report, Stage::reference));
    EXPECT_FALSE(reached(report, Stage::done));
    report.stage = Stage::done;
    EXPECT_TRUE(reached(report, Stage::check));
    EXPECT_TRUE(reached(report, Stage::done));
}

TEST(Reached, AWorkerThatFailedReachedNoStage) {
    RunReport report;
    report.stage = Stage::worker;
    for (const Stage stage : {Stage::source, Stage::spec, Stage::compile, Stage::load, Stage::run, Stage::done})
        EXPECT_FALSE(reached(report, stage)) << stage;
}

// A GEMM run at 1 ms: 2 TFLOP/s.
RunReport gemm_run(bool deferred) {
    RunReport report;
    report.stage = Stage::done;
    report.flops = 2e9;
    report.bytes = 1e9;
    report.kernel_ms.median = 1;
    report.ceiling.kind = CeilingKind::cublas;
    report.ceiling.name = "cuBLAS fp32";
    report.ceiling.deferred = deferred;
    if (!deferred) report.ceiling.gflops = 4000;
    apply_verdict(report);
    return report;
}

TEST(Verdict, AMeasuredCeilingNamesTheBound) {
    const RunReport report = gemm_run(false);
    EXPECT_DOUBLE_EQ(report.gflops, 2000);
    EXPECT_DOUBLE_EQ(report.gbps, 1000);
    EXPECT_DOUBLE_EQ(report.percent_of_ceiling, 50);
    EXPECT_EQ(report.verdict, "compute-bound: 50% of cuBLAS fp32");
}

TEST(Verdict, ADeferredCeilingSettledLaterJudgesTheSameRates) {
    RunReport report = gemm_run(true);
    EXPECT_EQ(report.verdict, "measuring cuBLAS fp32 at this size...");
    EXPECT_EQ(report.percent_of_ceiling, 0);
    settle_library_ceiling(report, 8000, "");
    EXPECT_FALSE(report.ceiling.deferred);
    EXPECT_DOUBLE_EQ(report.ceiling.gflops, 8000);
    EXPECT_DOUBLE_EQ(report.gflops, 2000) << "the worker's rate stays";
    EXPECT_DOUBLE_EQ(report.percent_of_ceiling, 25);
    EXPECT_EQ(report.verdict, "compute-bound: 25% of cuBLAS fp32");
}

TEST(Verdict, ADeferredCeilingThatCouldNotRunSaysWhy) {
    RunReport report = gemm_run(true);
    settle_library_ceiling(report, -1, "cuBLAS is not installed on the worker's host");
    EXPECT_TRUE(report.ceiling.deferred);
    EXPECT_EQ(report.percent_of_ceiling, 0);
    EXPECT_EQ(report.verdict, "cuBLAS could not run here: cuBLAS is not installed on the worker's host");
}

TEST(Verdict, ShareOfCeiling) {
    EXPECT_DOUBLE_EQ(share_of_ceiling(50, 200), 25);
    EXPECT_EQ(share_of_ceiling(50, 0), 0);
}

}  // namespace
}  // namespace kplay
