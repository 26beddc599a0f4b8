// The deferred cuBLAS ceiling: asked for once per task and sizes, one at a time, never for the emulated
// device; applied to the reports of those sizes once measured, or its failure said in their verdict.
#include "session/library_ceiling.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

// A GPU run of 2000 GFLOP/s whose cuBLAS ceiling was deferred.
RunReport deferred_run(const std::string& sizes = "1024x1024x1024") {
    RunReport report;
    report.stage = Stage::done;
    report.task = "matmul";
    report.sizes = sizes;
    report.flops = 2e9;
    report.kernel_ms.median = 1;
    report.gflops = 2000;
    report.ceiling.kind = CeilingKind::cublas;
    report.ceiling.name = "cuBLAS fp32";
    report.ceiling.deferred = true;
    return report;
}

WorkerResult answer(uint64_t id, double gflops, const std::string& error = "") {
    WorkerResult result;
    result.id = id;
    result.run.stage = error.empty() ? Stage::done : Stage::run;
    result.run.error = error;
    result.run.gflops = gflops;
    return result;
}

}  // namespace

TEST(LibraryCeiling, IsAskedForOncePerTaskAndSizes) {
    LibraryCeiling ceiling;
    const auto request =
        ceiling.request_for(deferred_run(), "/k/mm.cu", "text", 7, -1);  // -1: the emulated device in the menu
    ASSERT_TRUE(request);
    EXPECT_EQ(request->baseline, Baseline::cublas_fp32);
    EXPECT_EQ(request->kernel_path, "/k/mm.cu");
    EXPECT_EQ(request->source, "text");
    EXPECT_EQ(request->inputs.size, "1024x1024x1024");
    EXPECT_EQ(request->inputs.seed, 7u);
    EXPECT_EQ(request->device, 0);
    EXPECT_FALSE(request->check_test_sizes);
    EXPECT_EQ(request->warmup, 2);
    EXPECT_EQ(request->repeat, 10);
    ceiling.submitted(5);
    EXPECT_FALSE(ceiling.request_for(deferred_run("512x512x512"), "/k/mm.cu", "text", 7, 0)) << "one at a time";

    EXPECT_FALSE(ceiling.handle(answer(4, 1000))) << "another request's answer";
    const auto measured = ceiling.handle(answer(5, 4000));
    ASSERT_TRUE(measured);
    EXPECT_EQ(measured->task, "matmul");
    EXPECT_EQ(measured->sizes, "1024x1024x1024");
    EXPECT_DOUBLE_EQ(measured->gflops, 4000);
    EXPECT_FALSE(ceiling.handle(answer(5, 4000))) << "answered once";

    EXPECT_FALSE(ceiling.request_for(deferred_run(), "/k/mm.cu", "text", 7, 0)) << "known now";
    EXPECT_TRUE(ceiling.request_for(deferred_run("512x512x512"), "/k/mm.cu", "text", 7, 0));
}

TEST(LibraryCeiling, OnlyAGoodGpuRunWithADeferredCeilingAsks) {
    LibraryCeiling ceiling;
    RunReport emulated = deferred_run(), failed = deferred_run(), measured = deferred_run();
    emulated.emulated = true;
    failed.error = "out of resources";
    measured.ceiling.deferred = false;
    EXPECT_FALSE(ceiling.request_for(emulated, "k.cu", "", 1, 0));
    EXPECT_FALSE(ceiling.request_for(failed, "k.cu", "", 1, 0));
    EXPECT_FALSE(ceiling.request_for(measured, "k.cu", "", 1, 0));
}

TEST(LibraryCeiling, AMeasuredCeilingGivesReportsOfThoseSizesTheirShare) {
    LibraryCeiling ceiling;
    RunReport report = deferred_run();
    ceiling.apply(report);
    EXPECT_TRUE(report.ceiling.deferred) << "not measured yet";

    ASSERT_TRUE(ceiling.request_for(report, "k.cu", "", 1, 0));
    ceiling.submitted(3);
    ASSERT_TRUE(ceiling.handle(answer(3, 4000)));
    EXPECT_TRUE(ceiling.note().empty());
    ceiling.apply(report);
    EXPECT_FALSE(report.ceiling.deferred);
    EXPECT_DOUBLE_EQ(report.ceiling.gflops, 4000);
    EXPECT_DOUBLE_EQ(report.percent_of_ceiling, 50);

    RunReport other = deferred_run("512x512x512");
    ceiling.apply(other);
    EXPECT_TRUE(other.ceiling.deferred) << "other sizes have a ceiling of their own";
}

TEST(LibraryCeiling, ACublasThatCannotRunSaysWhyInTheVerdict) {
    LibraryCeiling ceiling;
    RunReport report = deferred_run();
    ASSERT_TRUE(ceiling.request_for(report, "k.cu", "", 1, 0));
    ceiling.submitted(9);
    const auto measured = ceiling.handle(answer(9, 0, "libcublas.so not found"));
    ASSERT_TRUE(measured);
    EXPECT_LT(measured->gflops, 0);
    EXPECT_EQ(ceiling.note(), "libcublas.so not found");
    ceiling.apply(report);
    EXPECT_TRUE(report.ceiling.deferred);
    EXPECT_EQ(report.verdict, "cuBLAS could not run here: libcublas.so not found");
    EXPECT_FALSE(ceiling.request_for(report, "k.cu", "", 1, 0)) << "not asked again at these sizes";
}
