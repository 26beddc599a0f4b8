// From a compile to what the Inside tab and `kplay-cli inspect` show, the fault finders' reports and
// the profiler's command, on outputs recorded on the H200 (tests/data/inspect) and hand-made ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "base/cache_dir.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/fault_finder.hpp"
#include "inspect/kernel_inspection.hpp"
#include "inspect/profiler.hpp"
#include "session/kernel_inspector.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

// matmul step 3 compiled for sm_90 as recorded: its PTX and ptxas report, no CUBIN.
CompileFileResult recorded_matmul_03() {
    CompileFileResult result;
    const auto file = test::kernels_dir() / "matmul/03_tiled_static_smem.cu";
    result.spec = resolve_kernel_spec(read_source_file(file), file);
    result.compile.ok = true;
    result.compile.is_cubin = true;
    result.compile.arch = "sm_90";
    result.compile.ptx = kplay::test::recorded_output("m3.ptx");
    result.compile.log = kplay::test::recorded_output("ptxas-m3.log");
    result.compile.lowered_names["matmul_tiled_k<16>"] = "_Z14matmul_tiled_kILi16EEvPfS0_S0_iii";
    return result;
}

bool has(const std::vector<std::string>& list, const std::string& item) { return std::find(list.begin(), list.end(), item) != list.end(); }

}  // namespace

TEST(InspectCompile, ResourcesOccupancyAndLinkedPtxOfARecordedCompile) {
    // The recorded PTX names the file as it was in the checkout it was made in.
    const KernelInspection inspection = inspect_compile(recorded_matmul_03(), "/work/main/kernels_src/matmul/03_tiled_static_smem.cu", 0, false);
    ASSERT_TRUE(inspection.compiled) << inspection.problem;
    EXPECT_EQ(inspection.kernel, "matmul_tiled_k<16>");
    EXPECT_EQ(inspection.lowered_name, "_Z14matmul_tiled_kILi16EEvPfS0_S0_iii");
    ASSERT_TRUE(inspection.resources.found);
    EXPECT_EQ(inspection.resources.registers, 32);
    EXPECT_EQ(inspection.resources.static_smem_bytes, 2048);
    EXPECT_EQ(inspection.resources.barriers, 1);
    EXPECT_EQ(inspection.block_threads, 256);  // the annotation's block=16,16
    ASSERT_TRUE(inspection.occupancy.has_value());
    EXPECT_EQ(inspection.occupancy->blocks_per_sm, 8);
    EXPECT_DOUBLE_EQ(inspection.occupancy->fraction, 1.0);
    const auto counts = inspection.ptx.instructions_by_line();
    EXPECT_EQ(counts.at(27), 48);  // the unrolled inner product
    EXPECT_EQ(counts.count(26), 0u);  // #pragma unroll has no code
    EXPECT_FALSE(inspection.sass.has_value());
    EXPECT_TRUE(inspection.sass_problem.empty());  // not asked for
    // Asked for, with no CUBIN: said so.
    const KernelInspection with_sass = inspect_compile(recorded_matmul_03(), "/work/main/kernels_src/matmul/03_tiled_static_smem.cu", 512, true);
    EXPECT_NE(with_sass.sass_problem.find("without its CUBIN"), std::string::npos) << with_sass.sass_problem;
    EXPECT_EQ(with_sass.block_threads, 512);
    EXPECT_EQ(with_sass.occupancy->blocks_per_sm, 4);
}

TEST(InspectCompile, AFailedCompileHasNothingToShowAndSaysWhy) {
    CompileFileResult failed;
    failed.compile.ok = false;
    failed.compile.failure = "NVRTC could not start";
    const KernelInspection inspection = inspect_compile(failed, "k.cu", 0, true);
    EXPECT_FALSE(inspection.compiled);
    EXPECT_EQ(inspection.problem, "NVRTC could not start");
    CompileFileResult unreadable;
    unreadable.input_error = "Kernel file not found: k.cu";
    EXPECT_EQ(inspect_compile(unreadable, "k.cu", 0, true).problem, "Kernel file not found: k.cu");
}

TEST(InspectCompile, NvdisasmMissingOrRefusingIsAMessage) {
    const Disassembly garbage = disassemble_cubin("not a cubin");
    EXPECT_TRUE(garbage.text.empty());
    if (find_cuda_tool(CudaTool::nvdisasm).found())
        EXPECT_NE(garbage.problem.find("nvdisasm failed"), std::string::npos) << garbage.problem;
    else
        EXPECT_NE(garbage.problem.find("cuda-nvdisasm"), std::string::npos) << garbage.problem;
}

TEST(CudaTools, AMissingToolNamesWhereItWasLookedForAndItsPackage) {
    test::TempDir empty;
    const char* path = std::getenv("PATH");
    const std::string saved = path ? path : "";
    setenv("PATH", empty.path().c_str(), 1);
    setenv("CUDA_HOME", empty.path().c_str(), 1);
    const ToolLookup ncu = find_cuda_tool(CudaTool::ncu);
    setenv("PATH", saved.c_str(), 1);
    unsetenv("CUDA_HOME");
    if (ncu.found()) {
        EXPECT_EQ(ncu.path, "/usr/local/cuda/bin/ncu");  // the last place looked
        return;
    }
    EXPECT_NE(ncu.missing.find("ncu was not found in $CUDA_HOME/bin, on PATH or in /usr/local/cuda/bin"), std::string::npos);
    EXPECT_NE(ncu.missing.find("Nsight Compute"), std::string::npos);
}

TEST(FaultFinder, SanitizerReportsBecomeLinesOfTheKernelFile) {
    const std::string file = "/home/me/kernels_src/faults/01_out_of_bounds_write.cu";
    const FaultLocation oob = location_from_sanitizer(parse_sanitizer_output(kplay::test::recorded_output("cs-01_out_of_bounds_write.txt")), file);
    EXPECT_TRUE(oob.found) << oob.problem;
    EXPECT_EQ(oob.line, 12);
    EXPECT_EQ(oob.finder, FaultFinder::compute_sanitizer);
    EXPECT_NE(oob.message.find("(96,0,0)"), std::string::npos) << oob.message;
    // A device assert: its own line, not the sanitizer's finding inside __assertfail.
    const FaultLocation assert_line =
        location_from_sanitizer(parse_sanitizer_output(kplay::test::recorded_output("cs-06_device_assert.txt")), "/x/faults/06_device_assert.cu");
    EXPECT_TRUE(assert_line.found) << assert_line.problem;
    EXPECT_EQ(assert_line.line, 13);
    EXPECT_NE(assert_line.message.find("i != n / 3"), std::string::npos) << assert_line.message;
    // Another file's name: no line of this one.
    const FaultLocation elsewhere = location_from_sanitizer(parse_sanitizer_output(kplay::test::recorded_output("cs-01_out_of_bounds_write.txt")), "/x/other.cu");
    EXPECT_FALSE(elsewhere.found);
    const FaultLocation clean = location_from_sanitizer(parse_sanitizer_output(kplay::test::recorded_output("cs-clean.txt")), file);
    EXPECT_FALSE(clean.found);
    EXPECT_EQ(clean.problem, "compute-sanitizer's memcheck found no error in the same run.");
}

TEST(FaultFinder, TheSanitizerRerunIsTheFaultedRunOnceInProcess) {
    RunRequest request;
    request.kernel_path = "kernels_src/faults/01_out_of_bounds_write.cu";
    request.device = 1;
    request.block = std::vector<int64_t>{128};
    request.defines = {{"TILE", "8"}};
    RunReport faulted;
    faulted.sizes = "1280x800";
    const auto command = sanitizer_command("/opt/cs", "/bin/kplay-cli", request, faulted);
    ASSERT_GE(command.size(), 12u);
    EXPECT_EQ(command[0], "env");
    EXPECT_EQ(command[1], "KPLAY_GUARD_ZONE=0");  // memcheck judges writes by the allocation's end
    EXPECT_EQ(command[2], "/opt/cs");
    for (const char* expected : {"memcheck", "--in-process", "--no-test-sizes", "/bin/kplay-cli", "run", "1280x800", "128", "TILE=8"})
        EXPECT_TRUE(has(command, expected)) << expected;
    EXPECT_EQ(command.back(), "1");  // --device 1
    // --report-api-errors no: the API errors kplay copes with do not use up the print limit.
    const auto api = std::find(command.begin(), command.end(), "--report-api-errors");
    ASSERT_NE(api, command.end());
    EXPECT_EQ(*(api + 1), "no");
}

TEST(FaultFinder, TheEmulatedRerunSaysWhenItCannotHelp) {
    RunReport cannot;
    cannot.stage = Stage::compile;
    cannot.error = "the host compiler cannot build inline PTX";
    const FaultLocation location = location_from_emulated_run(cannot);
    EXPECT_FALSE(location.found);
    EXPECT_EQ(location.problem, "The emulated device cannot run this kernel: the host compiler cannot build inline PTX");
    RunReport faulted;
    faulted.stage = Stage::run;
    faulted.error = "thread (0,0,0) of block (3,0,0) wrote past the end of 'out' at k.cu:7";
    faulted.error_line = 7;
    const FaultLocation found = location_from_emulated_run(faulted);
    EXPECT_TRUE(found.found);
    EXPECT_EQ(found.line, 7);
    EXPECT_EQ(found.message, faulted.error);
    RunReport emulated_fault = faulted;
    emulated_fault.emulated = true;
    emulated_fault.fault.sticky = true;
    EXPECT_FALSE(can_find_fault_line(emulated_fault));  // the emulated device named the line itself
}

TEST(Profiler, TheNcuCommandProfilesTheKernelOnceByItsMangledName) {
    RunRequest request;
    request.kernel_path = "kernels_src/grayscale/05_sixteen_pixels_uint4.cu";
    RunReport ran;
    ran.lowered_name = "_Z10gray_uint4PKhPhi";
    ran.sizes = "1280x800";
    const auto command = ncu_command("/usr/local/cuda/bin/ncu", "/bin/kplay-cli", request, ran, default_profile_sections(), "/tmp/p.csv");
    for (const char* expected : {"--clock-control", "none", "--launch-count", "1", "mangled", "regex:^_Z10gray_uint4PKhPhi$", "SpeedOfLight",
                                 "WarpStateStats", "LaunchStats", "--csv", "details", "/tmp/p.csv", "--no-test-sizes", "1280x800"})
        EXPECT_TRUE(has(command, expected)) << expected;
    const auto clock = std::find(command.begin(), command.end(), "--clock-control");
    EXPECT_EQ(*(clock + 1), "none");
}

TEST(Profiler, StallMetricsOnTheDetailsPageBecomeTheTopThree) {
    std::string why;
    auto summary = parse_ncu_details_csv(kplay::test::recorded_output("ncu-05_sixteen_pixels_uint4.csv"), &why);
    ASSERT_TRUE(summary) << why;
    summary->top_stalls.clear();
    for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
             {"long_scoreboard", "7.77"}, {"selected", "1.00"}, {"wait", "1.41"}, {"short_scoreboard", "2.08"}, {"barrier", "0"}})
        summary->metrics.push_back({"Command line profiler metrics", "smsp__average_warps_issue_stalled_" + name + "_per_issue_active.ratio", "inst", value});
    add_stalls_from_details(*summary);
    ASSERT_EQ(summary->top_stalls.size(), 3u);
    EXPECT_EQ(summary->top_stalls[0].name, "long scoreboard");
    EXPECT_DOUBLE_EQ(summary->top_stalls[0].cycles_per_issue, 7.77);
    EXPECT_EQ(summary->top_stalls[1].name, "short scoreboard");
    EXPECT_EQ(summary->top_stalls[2].name, "wait");  // "selected" is not a stall
}

TEST(KernelInspector, EachNewTextIsInspectedOnceAndItsChangesAreShown) {
    KernelInspector inspector;
    const auto first = inspector.request_for("k.cu", "text 1", "h1", {}, "sm_90");
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->inspect);
    EXPECT_EQ(first->source.value_or(""), "text 1");
    EXPECT_FALSE(inspector.request_for("k.cu", "text 1", "h1", {}, "sm_90"));  // the same text again: nothing new
    inspector.submitted(41, 1, 256);
    WorkerResult stray;
    stray.id = 40;
    EXPECT_FALSE(inspector.handle(stray));
    // The recorded compile, with ptxas saying `registers` registers.
    auto answer = [](uint64_t id, int registers) {
        WorkerResult result;
        result.id = id;
        result.kind = MessageKind::compile;
        result.compile = recorded_matmul_03();
        std::string& log = result.compile.compile.log;
        log.replace(log.find("Used 32 registers"), 17, "Used " + std::to_string(registers) + " registers");
        return result;
    };
    EXPECT_TRUE(inspector.handle(answer(41, 32)));
    for (int i = 0; i < 500 && !inspector.poll(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_NE(inspector.current(), nullptr);
    EXPECT_EQ(inspector.current()->run, 1);
    EXPECT_EQ(inspector.previous(), nullptr);
    EXPECT_TRUE(inspector.changes().empty());
    ASSERT_TRUE(inspector.request_for("k.cu", "text 2", "h2", {}, "sm_90"));
    inspector.submitted(42, 2, 256);
    EXPECT_TRUE(inspector.handle(answer(42, 40)));
    for (int i = 0; i < 500 && !inspector.poll(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_EQ(inspector.recent().size(), 2u);
    ASSERT_NE(inspector.previous(), nullptr);
    EXPECT_EQ(inspector.previous()->run, 1);
    EXPECT_EQ(inspector.resources_by_run().at(1).registers, 32);
    EXPECT_EQ(inspector.resources_by_run().at(2).registers, 40);
    EXPECT_EQ(describe_changes(inspector.changes()), "registers 32 \u2192 40");
    ASSERT_NE(inspector.of_run(1), nullptr);
    EXPECT_EQ(inspector.of_run(3), nullptr);
}

TEST(Profiler, ASummaryInPlainWordsForTheCliAndTheWindow) {
    std::string why;
    auto summary = parse_ncu_details_csv(kplay::test::recorded_output("ncu-05_sixteen_pixels_uint4.csv"), &why);
    ASSERT_TRUE(summary) << why;
    summary->top_stalls = {{"long scoreboard", 7.77}, {"wait", 1.41}};
    const auto lines = describe_profile(*summary);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "3.71 \u00b5s; SM 16.6%, memory 17.3% (DRAM 17.3%) of peak");
    EXPECT_EQ(lines[1].rfind("occupancy ", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find("L2 hit 30.8%; 31 registers/thread"), std::string::npos) << lines[1];
    EXPECT_EQ(lines[2], "stalls: long scoreboard 7.77, wait 1.41 (cycles per issued instruction)");
    summary->top_stalls.clear();
    summary->duration_ns = -1;
    EXPECT_EQ(describe_profile(*summary).size(), 2u);
    EXPECT_EQ(describe_profile(*summary)[0].rfind("n/a; ", 0), 0u);
}
