// On a GPU machine with the toolkit's tools: the SASS of matmul step 8 linked to its lines, the fault
// corpus's out-of-bounds, misaligned and assert kernels located to their lines by both finders, and
// Nsight Compute summaries of grayscale step 5 and matmul step 8. The figures are printed as tables.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "client/worker_client.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/fault_finder.hpp"
#include "inspect/kernel_inspection.hpp"
#include "inspect/profiler.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"
#include "error_code_names.hpp"

using namespace kplay;

namespace {

WorkerOptions worker() {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.run_timeout_s = 10;
    return options;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
    std::vector<std::string> lines;
    std::istringstream in(read_source_file(file));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST(GpuInspect, TheSassOfMatmulStep8IsLinkedToItsSourceLines) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const ToolLookup tool = find_cuda_tool(CudaTool::nvdisasm); !tool.found()) GTEST_SKIP() << tool.missing;
    WorkerClient client(worker());
    CompileFileRequest request;
    request.path = test::kernels_dir() / "matmul/08_warp_tiling.cu";
    request.inspect = true;
    const WorkerResult answer = client.wait(client.submit_compile(request));
    ASSERT_TRUE(answer.ok()) << answer.failure_message;
    const KernelInspection inspection = inspect_compile(answer.compile, request.path.string(), 0, true);
    ASSERT_TRUE(inspection.compiled) << inspection.problem;
    ASSERT_TRUE(inspection.sass.has_value()) << inspection.sass_problem;
    EXPECT_EQ(inspection.sass->function, "_Z15sgemm_warptiledPKfS0_Pfiii");
    const auto counts = inspection.sass->instructions_by_line();
    const std::vector<std::string> source = lines_of(request.path);
    int linked = 0, heaviest_line = 0, heaviest = 0;
    for (const auto& [line, count] : counts) {
        ASSERT_GE(line, 1);
        ASSERT_LE(line, static_cast<int>(source.size()));
        const std::string text = source[line - 1].substr(source[line - 1].find_first_not_of(" \t") == std::string::npos ? 0 : source[line - 1].find_first_not_of(" \t"));
        EXPECT_NE(text.rfind("//", 0), 0u) << "SASS linked to comment line " << line << ": " << text;
        EXPECT_FALSE(text.empty()) << "SASS linked to blank line " << line;
        linked += count;
        if (count > heaviest) heaviest = count, heaviest_line = line;
    }
    EXPECT_GT(linked, 1000);
    // The 8x8 outer product of the inner loop, unrolled, is where the FFMAs are.
    EXPECT_NE(source[heaviest_line - 1].find("acc[i][j] += a[i] * b[j]"), std::string::npos) << heaviest_line << ": " << source[heaviest_line - 1];
    const std::vector<int> rows = inspection.sass->lines_of(heaviest_line);
    int ffma = 0;
    for (int row : rows) ffma += inspection.sass->lines[row].text.find("FFMA") != std::string::npos;
    EXPECT_GE(ffma, 64);
    std::printf("\nmatmul/08 SASS: %d instructions linked to %zu source lines; line %d has %d (%d FFMA); %d registers, %d B spills\n", linked,
                counts.size(), heaviest_line, heaviest, ffma, inspection.resources.registers,
                inspection.resources.spill_store_bytes + inspection.resources.spill_load_bytes);
}

TEST(GpuInspect, FaultsAreLocatedToTheirLinesByTheEmulatedRerunAndComputeSanitizer) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const ToolLookup sanitizer = find_cuda_tool(CudaTool::compute_sanitizer);
    WorkerClient client(worker());
    std::printf("\n| fault | GPU error | emulated device | s | compute-sanitizer | s |\n|---|---|---|---|---|---|\n");
    // The emulated device finds the misaligned kernel's read past the end on the line that uses it (13);
    // compute-sanitizer names the misaligned load's own (12).
    struct Fault {
        std::string name;
        int emulated_line, sanitizer_line;
    };
    for (const auto& [name, line, sanitizer_line] :
         std::vector<Fault>{{"01_out_of_bounds_write.cu", 12, 12}, {"06_device_assert.cu", 13, 13}, {"07_misaligned_float4.cu", 13, 12}}) {
        SCOPED_TRACE(name);
        RunRequest request;
        request.kernel_path = test::kernels_dir() / "faults" / name;
        const RunReport faulted = client.wait(client.submit_run(request)).run;
        ASSERT_TRUE(can_find_fault_line(faulted)) << faulted.error;
        const auto start = std::chrono::steady_clock::now();
        FaultLocation emulated = location_from_emulated_run(client.wait(client.submit_run(emulated_rerun_request(request, faulted))).run);
        emulated.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_TRUE(emulated.found) << emulated.problem;
        EXPECT_EQ(emulated.line, line) << emulated.message;
        FaultLocation checked;
        if (sanitizer.found()) {
            checked = find_fault_with_sanitizer(test::cli_path(), request, faulted);
            EXPECT_TRUE(checked.found) << checked.problem;
            EXPECT_EQ(checked.line, sanitizer_line) << checked.message;
        } else {
            ADD_FAILURE() << "a GPU machine without compute-sanitizer: " << sanitizer.missing;
        }
        std::printf("| %s | %s | line %d | %.2f | line %d | %.1f |\n", name.c_str(), error_code_name(faulted.error_code).c_str(), emulated.line, emulated.seconds,
                    checked.line, checked.seconds);
    }
}

TEST(GpuInspect, NsightComputeSummarizesGrayscaleStep5AndMatmulStep8) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const ToolLookup tool = find_cuda_tool(CudaTool::ncu); !tool.found()) GTEST_SKIP() << tool.missing;
    WorkerClient client(worker());
    std::printf("\n| kernel | ncu s | duration ns | SM %% | DRAM %% | achieved occupancy %% | L2 hit %% | top stall |\n|---|---|---|---|---|---|---|---|\n");
    for (const char* file : {"grayscale/05_sixteen_pixels_uint4.cu", "matmul/08_warp_tiling.cu"}) {
        SCOPED_TRACE(file);
        RunRequest request;
        request.kernel_path = test::kernels_dir() / file;
        request.check_test_sizes = false;
        const RunReport ran = client.wait(client.submit_run(request)).run;
        ASSERT_TRUE(ran.ok()) << ran.error;
        const ProfileOutcome profile = profile_with_ncu(test::cli_path(), request, ran);
        ASSERT_TRUE(profile.summary.has_value()) << profile.problem;
        const ProfileSummary& s = *profile.summary;
        EXPECT_GT(s.duration_ns, 0);
        EXPECT_GT(s.sm_throughput_pct, 0);
        EXPECT_GT(s.dram_throughput_pct, 0);
        EXPECT_GT(s.achieved_occupancy_pct, 0);
        EXPECT_EQ(s.registers_per_thread, ran.function.registers_per_thread);
        ASSERT_EQ(s.top_stalls.size(), 3u) << "the stall metrics did not reach the details page";
        std::printf("| %s | %.1f | %.0f | %.1f | %.1f | %.1f | %.1f | %s %.2f |\n", file, profile.seconds, s.duration_ns, s.sm_throughput_pct,
                    s.dram_throughput_pct, s.achieved_occupancy_pct, s.l2_hit_pct, s.top_stalls[0].name.c_str(), s.top_stalls[0].cycles_per_issue);
    }
}

// The learner's bug: no bounds check, at a size the block does not divide. The GPU does not fault (the
// last block's writes stay inside the allocation); the guard zone after `out` sees them, and the
// emulated re-run names the line.
TEST(GpuInspect, AMissingBoundsCheckIsCaughtAndItsLineFound) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    const auto file = dir.write("grayscale/no_bounds_check.cu",
                                "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=256\n"
                                "__global__ void k(const unsigned char* x, unsigned char* out, int n) {\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    out[i] = (x[i] + x[i + n] + x[i + 2 * n]) / 3;\n"
                                "}\n");
    WorkerClient client(worker());
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = "1001x999";  // 999999 pixels: the last block has 193 threads too many
    const auto start = std::chrono::steady_clock::now();
    const RunReport faulted = client.wait(client.submit_run(request)).run;
    EXPECT_EQ(faulted.error_code, "KPLAY_OUT_OF_BOUNDS_WRITE") << faulted.error;
    EXPECT_NE(faulted.error.find("wrote past the end of 'out' (999999 bytes): up to 193 bytes beyond it"), std::string::npos) << faulted.error;
    ASSERT_TRUE(can_find_fault_line(faulted));
    const FaultLocation emulated = location_from_emulated_run(client.wait(client.submit_run(emulated_rerun_request(request, faulted))).run);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(emulated.found) << emulated.problem;
    EXPECT_EQ(emulated.line, 4) << emulated.message;
    std::printf("\nmissing bounds check at 1001x999: GPU run and emulated re-run to the line in %.2f s: %s\n", seconds, emulated.message.c_str());
}
