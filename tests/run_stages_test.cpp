// The run's stages that need no device: what launches (the kernel file, or cuBLAS in its place), and
// the report assembled from the stages' values as far as a run got.
#include <gtest/gtest.h>

#include "error_code_names.hpp"
#include "run/launch_source.hpp"
#include "run/read_file.hpp"
#include "run/report_assembly.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

RunRequest matmul_request(Baseline baseline) {
    RunRequest request;
    request.kernel_path = test::kernels_dir() / "matmul" / "01_seed_naive.cu";
    request.baseline = baseline;
    return request;
}

TEST(LaunchSource, TheKernelFileCompilesAndChecksEverySize) {
    const RunRequest request = matmul_request(Baseline::none);
    const KernelFile file = read_kernel_file(request, read_source(request));
    const auto source = choose_launch_source(request, file);
    EXPECT_EQ(source->name(), "matmul_k");
    EXPECT_EQ(source->problem(), "");
    EXPECT_TRUE(source->compiles());
    EXPECT_TRUE(source->checks_further_sizes());
    EXPECT_FALSE(source->own_ceiling(2e9, 1).has_value());
    EXPECT_EQ(source->tolerance(), file.spec.tolerance);
}

TEST(LaunchSource, ALibraryInTheKernelsPlaceIsItsOwnCeiling) {
    RunRequest request = matmul_request(Baseline::cublas_fp32);
    request.tolerance = 1e-4;
    const KernelFile file = read_kernel_file(request, read_source(request));
    ASSERT_EQ(file.spec.task.cost.gemm.size(), 6u);
    const auto source = choose_launch_source(request, file);
    EXPECT_EQ(source->name(), "cuBLAS SGEMM (fp32)");
    EXPECT_EQ(source->problem(), "");
    EXPECT_FALSE(source->compiles());
    EXPECT_FALSE(source->checks_further_sizes());
    EXPECT_EQ(source->tolerance(), 1e-4);
    const std::optional<Ceiling> ceiling = source->own_ceiling(2e9, 1);
    ASSERT_TRUE(ceiling.has_value());
    EXPECT_EQ(ceiling->kind, CeilingKind::cublas);
    EXPECT_EQ(ceiling->name, "cuBLAS fp32");
    EXPECT_DOUBLE_EQ(ceiling->gflops, 2000);

    request.baseline = Baseline::cublas_tf32;
    const auto tf32 = choose_launch_source(request, file);
    EXPECT_EQ(tf32->name(), "cuBLAS SGEMM (TF32)");
    EXPECT_DOUBLE_EQ(*tf32->tolerance(), 1e-4 * 8192) << "TF32 rounds 8192 times coarser";
}

TEST(LaunchSource, ALibraryNeedsTheTasksGemm) {
    test::TempDir dir;
    RunRequest request;
    request.kernel_path = dir.write("add.cu", test::vector_add_task("default=1000 test=1"));
    request.baseline = Baseline::cublas_fp32;
    const KernelFile file = read_kernel_file(request, read_source(request));
    const auto source = choose_launch_source(request, file);
    EXPECT_NE(source->problem().find("names no GEMM for cuBLAS to time (declare ceiling=cublas gemm=A,B,C,M,N,K)."), std::string::npos)
        << source->problem();
}

TEST(ReportAssembly, AFailedCompileSaysHowManyErrors) {
    RunReport report;
    CompileResult compiled;
    compiled.binary = "cubin";
    compiled.diagnostics = {{"k.cu", 3, 1, Severity::error, "", "expected a \";\"", "", ""},
                            {"k.cu", 4, 1, Severity::error, "", "undefined identifier", "", ""}};
    record_compile(report, compiled, KernelSpec{});
    EXPECT_EQ(report.error, "2 compile errors");
    EXPECT_TRUE(report.compile.binary.empty()) << "a report never carries the binary";

    compiled.diagnostics.clear();
    compiled.failure = "NVRTC ran out of memory";
    record_compile(report, compiled, KernelSpec{});
    EXPECT_EQ(report.error, "Compilation failed: NVRTC ran out of memory");
}

// A main size planned at 1000 elements, with its reference computed.
SizeRun planned_size() {
    SizeRun run;
    TaskData data;
    data.sizes = "1000";
    data.description = "random inputs at n=1000 (seed 1)";
    run.data = std::make_shared<const TaskData>(std::move(data));
    run.plan = SizePlan{};
    run.plan->first.launch.grid = {4, 1, 1};
    run.plan->first.launch.block = {256, 1, 1};
    run.reference = ReferenceResult{nullptr, 12.5, true, "host function kplay_reference (sandboxed)"};
    return run;
}

TEST(ReportAssembly, AMainSizeThatStoppedReportsAsFarAsItGot) {
    SizeRun run = planned_size();
    run.reference.reset();
    run.stage = Stage::reference;
    RunReport report;
    record_main_size(report, run, KernelSpec{});
    EXPECT_EQ(report.stage, Stage::reference);
    EXPECT_EQ(report.sizes, "1000");
    EXPECT_EQ(report.input_description, "random inputs at n=1000 (seed 1)");
    EXPECT_EQ(report.launch.grid.text(), "4,1,1");
    EXPECT_EQ(report.check.reference, "");
    EXPECT_TRUE(report.error.empty());

    run = planned_size();
    run.stage = Stage::run;
    run.launches = RunnerResult{};
    run.launches->failure.ok = false;
    run.launches->failure.error = "thread (3,0,0) of block (1,0,0) wrote 1 element past the end of 'c'";
    run.launches->failure.error_code = ErrorCode::cuda_illegal_address;
    run.launches->failure.line = 7;
    record_main_size(report, run, KernelSpec{});
    EXPECT_EQ(report.stage, Stage::run);
    EXPECT_EQ(report.check.reference, "host function kplay_reference (sandboxed)");
    EXPECT_DOUBLE_EQ(report.check.reference_ms, 12.5);
    EXPECT_FALSE(report.check.passed) << "no check: the launches failed";
    EXPECT_EQ(report.error, run.launches->failure.error);
    EXPECT_EQ(report.error_code, "CUDA_ERROR_ILLEGAL_ADDRESS");
    EXPECT_EQ(report.error_line, 7);
}

TEST(ReportAssembly, AGpuFaultAtAFurtherSizeIsReportedWithThatSize) {
    RunReport report;
    report.stage = Stage::check;
    report.sizes = "4096";
    FurtherChecks checks;
    checks.sizes = {{"1", 1, true, false, "PASS", ErrorCode::none}};
    checks.ran = true;
    checks.last_sizes = "1025";
    checks.last_launch.grid = {5, 1, 1};
    record_further_sizes(report, checks);
    EXPECT_EQ(report.stage, Stage::run);
    EXPECT_EQ(report.sizes, "4096") << "no fault: the main size stays the report's";
    ASSERT_EQ(report.check.sizes.size(), 1u);

    checks.gpu_fault = true;
    record_further_sizes(report, checks);
    EXPECT_EQ(report.sizes, "1025");
    EXPECT_EQ(report.launch.grid.text(), "5,1,1");
}

}  // namespace
}  // namespace kplay
