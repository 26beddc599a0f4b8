// The inspect parsers on recorded H200 output: ptxas -v, compute-sanitizer memcheck, Nsight Compute CSV,
// resource deltas; plus broken, truncated and empty inputs.
#include <gtest/gtest.h>


#include "inspect/ncu_report.hpp"
#include "inspect/ptxas_report.hpp"
#include "inspect/resource_delta.hpp"
#include "inspect/sanitizer_report.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

const std::array<int, 3> kBlock8{8, 0, 0};

}  // namespace

// ---------------------------------------------------------------------------------------------- ptxas

TEST(PtxasReport, ReadsWarpTiledSgemm) {
    const PtxasReport report = parse_ptxas_report(kplay::test::recorded_output("ptxas-m8.log"));
    EXPECT_EQ(report.arch, "sm_90");
    EXPECT_EQ(report.gmem_bytes, 12);
    ASSERT_EQ(report.functions.size(), 1u);
    const PtxasResources* f = report.find("_Z15sgemm_warptiledPKfS0_Pfiii");
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->found);
    EXPECT_EQ(f->registers, 128);
    EXPECT_EQ(f->barriers, 1);
    EXPECT_EQ(f->static_smem_bytes, 32768);
    EXPECT_EQ(f->spill_store_bytes, 0);
    EXPECT_EQ(f->spill_load_bytes, 0);
    EXPECT_EQ(f->stack_frame_bytes, 0);
    EXPECT_EQ(f->cumulative_stack_bytes, 0);
    EXPECT_EQ(f->const_bytes, 0);
    EXPECT_TRUE(report.notes.empty());
    EXPECT_EQ(report.find("sgemm_warptiled"), nullptr);  // mangled names only
}

TEST(PtxasReport, ReadsTiledMatmul) {
    const PtxasReport report = parse_ptxas_report(kplay::test::recorded_output("ptxas-m3.log"));
    EXPECT_EQ(report.gmem_bytes, 0);
    const PtxasResources* f = report.find("_Z14matmul_tiled_kILi16EEvPfS0_S0_iii");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->registers, 32);
    EXPECT_EQ(f->barriers, 1);
    EXPECT_EQ(f->static_smem_bytes, 2048);
}

TEST(PtxasReport, KeepsTheMaxrregcountOverrideAsANote) {
    const PtxasReport report = parse_ptxas_report(kplay::test::recorded_output("ptxas-m8-override.log"));
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_EQ(report.notes[0], "Overriding global maxrregcount 64 with entry-specific value 128 computed using thread count");
    ASSERT_EQ(report.functions.size(), 1u);
    EXPECT_EQ(report.functions[0].registers, 128);
}

TEST(PtxasReport, ReadsSpillsAndStack) {
    const PtxasReport report = parse_ptxas_report(kplay::test::recorded_output("ptxas-f10-spills.log"));
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_EQ(report.notes[0], "Overriding maximum register limit 256 for '_Z14register_heavyPfS_S_iii' with  32 of maxrregcount option");
    const PtxasResources* f = report.find("_Z14register_heavyPfS_S_iii");
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->found);
    EXPECT_EQ(f->registers, 32);
    EXPECT_EQ(f->spill_store_bytes, 768);
    EXPECT_EQ(f->spill_load_bytes, 772);
    EXPECT_EQ(f->stack_frame_bytes, 400);
    EXPECT_EQ(f->cumulative_stack_bytes, 400);
    EXPECT_EQ(f->barriers, 0);
    EXPECT_EQ(f->static_smem_bytes, 0);
}

TEST(PtxasReport, AttributesUsedLineToTheCompiledEntryNotTheCallee) {
    const std::string log =
        "ptxas info    : 0 bytes gmem, 8 bytes cmem[4]\r\n"
        "ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_86'\r\n"
        "ptxas info    : Function properties for _Z3fooi\r\n"
        "ptxas         .     16 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\r\n"
        "ptxas info    : Function properties for _Z6kernelPf\r\n"
        "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\r\n"
        "ptxas info    : Used 10 registers, 360 bytes cmem[0], 16 bytes cumulative stack size\r\n"
        "ptxas warning : Registers are spilled to local memory in function '_Z3fooi', 4 bytes spill stores, 8 bytes spill loads\r\n"
        "not ptxas: Used 99 registers\n";
    const PtxasReport report = parse_ptxas_report(log);
    EXPECT_EQ(report.arch, "sm_86");
    ASSERT_EQ(report.functions.size(), 2u);
    const PtxasResources* kernel = report.find("_Z6kernelPf");
    const PtxasResources* callee = report.find("_Z3fooi");
    ASSERT_NE(kernel, nullptr);
    ASSERT_NE(callee, nullptr);
    EXPECT_TRUE(kernel->found);
    EXPECT_EQ(kernel->registers, 10);
    EXPECT_EQ(kernel->const_bytes, 360);
    EXPECT_EQ(kernel->cumulative_stack_bytes, 16);
    EXPECT_FALSE(callee->found);
    EXPECT_EQ(callee->stack_frame_bytes, 16);
    EXPECT_EQ(callee->spill_store_bytes, 4);
    EXPECT_EQ(callee->spill_load_bytes, 8);
    ASSERT_EQ(report.notes.size(), 1u);
    EXPECT_EQ(report.notes[0].rfind("warning: Registers are spilled", 0), 0u);
}

TEST(PtxasReport, EmptyAndMalformedLogsGiveNothing) {
    for (const std::string& log : {std::string(), std::string("\n\n\r\n"), std::string("lowered: _Z1fv\n"), std::string("ptxas"),
                                   std::string("ptxas info"), std::string("ptxas info    :"), std::string("ptxas         .     "),
                                   std::string("ptxas info    : Used 12 registers\n"),  // no function to give it to
                                   std::string("ptxas info    : Compiling entry function '_Z6ker"),
                                   std::string("ptxas info    : Function properties for \n"),
                                   std::string("\xff\xfe ptxas\0 info", 15)}) {
        const PtxasReport report = parse_ptxas_report(log);
        EXPECT_TRUE(report.functions.empty()) << log;
        EXPECT_EQ(report.arch, "") << log;
        EXPECT_EQ(report.gmem_bytes, 0) << log;
    }
}

TEST(PtxasReport, UnreadableNumbersLeaveFoundFalse) {
    const PtxasReport report = parse_ptxas_report(
        "ptxas info    : Compiling entry function '_Z1fv' for 'sm_90'\n"
        "ptxas info    : Used 99999999999999 registers, used x barriers, -4 bytes smem\n"
        "ptxas info    : 99999999999 bytes gmem\n");
    ASSERT_EQ(report.functions.size(), 1u);
    EXPECT_FALSE(report.functions[0].found);
    EXPECT_EQ(report.functions[0].registers, 0);
    EXPECT_EQ(report.functions[0].barriers, 0);
    EXPECT_EQ(report.functions[0].static_smem_bytes, 0);
    EXPECT_EQ(report.gmem_bytes, 0);
}

TEST(PtxasReport, EveryTruncationOfTheRecordedLogsParses) {
    for (const char* name : {"ptxas-m8.log", "ptxas-f10-spills.log", "ptxas-m8-override.log"}) {
        const std::string log = kplay::test::recorded_output(name);
        for (size_t size = 0; size <= log.size(); ++size) {
            const PtxasReport report = parse_ptxas_report(log.substr(0, size));
            // A cut inside "Function properties for _Z15sgemm..." names a second, partial function.
            ASSERT_LE(report.functions.size(), 2u);
            for (const auto& function : report.functions) {
                if (function.found) {
                    EXPECT_GT(function.registers, 0) << name << " cut at " << size;
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------ resource delta

TEST(ResourceDelta, TiledToWarpTiled) {
    const PtxasReport before = parse_ptxas_report(kplay::test::recorded_output("ptxas-m3.log"));
    const PtxasReport after = parse_ptxas_report(kplay::test::recorded_output("ptxas-m8.log"));
    ASSERT_EQ(before.functions.size(), 1u);
    ASSERT_EQ(after.functions.size(), 1u);
    const auto changes = resource_changes(before.functions[0], after.functions[0]);
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].what, "registers");
    EXPECT_EQ(changes[0].before, 32);
    EXPECT_EQ(changes[0].after, 128);
    EXPECT_EQ(changes[0].unit, "");
    EXPECT_TRUE(changes[0].worse);
    EXPECT_EQ(changes[1].what, "static smem");
    EXPECT_EQ(changes[1].unit, "B");
    EXPECT_EQ(describe_changes(changes), "registers 32 \u2192 128, static smem 2048 \u2192 32768 B");
}

TEST(ResourceDelta, SpillsGoneIsBetterAndOrderIsFixed) {
    const PtxasReport spilled = parse_ptxas_report(kplay::test::recorded_output("ptxas-f10-spills.log"));
    ASSERT_EQ(spilled.functions.size(), 1u);
    PtxasResources roomy = spilled.functions[0];
    roomy.registers = 80;
    roomy.spill_store_bytes = 0;
    roomy.spill_load_bytes = 0;
    roomy.stack_frame_bytes = 0;
    roomy.barriers = 1;
    const auto changes = resource_changes(spilled.functions[0], roomy);
    ASSERT_EQ(changes.size(), 5u);
    EXPECT_EQ(changes[0].what, "registers");
    EXPECT_TRUE(changes[0].worse);
    EXPECT_EQ(changes[1].what, "spill stores");
    EXPECT_FALSE(changes[1].worse);
    EXPECT_EQ(changes[2].what, "spill loads");
    EXPECT_EQ(changes[3].what, "stack frame");
    EXPECT_EQ(changes[4].what, "barriers");
    EXPECT_EQ(describe_changes(changes),
              "registers 32 \u2192 80, spill stores 768 \u2192 0 B, spill loads 772 \u2192 0 B, stack frame 400 \u2192 0 B, "
              "barriers 0 \u2192 1");
}

TEST(ResourceDelta, NoChangeIsEmpty) {
    const PtxasReport report = parse_ptxas_report(kplay::test::recorded_output("ptxas-m8.log"));
    ASSERT_EQ(report.functions.size(), 1u);
    EXPECT_TRUE(resource_changes(report.functions[0], report.functions[0]).empty());
    EXPECT_EQ(describe_changes({}), "");
    // Not compared: the mangled name, cumulative stack and constant bank.
    PtxasResources other = report.functions[0];
    other.function = "_Z1gv";
    other.const_bytes = 400;
    EXPECT_TRUE(resource_changes(report.functions[0], other).empty());
}

// ---------------------------------------------------------------------------------- compute-sanitizer

TEST(SanitizerReport, OutOfBoundsWrite) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-01_out_of_bounds_write.txt"));
    EXPECT_EQ(report.error_count, 89696);
    EXPECT_EQ(report.tool_error, "process didn't terminate successfully");
    EXPECT_FALSE(report.assertion);
    ASSERT_TRUE(report.first);
    const SanitizerFinding& f = *report.first;
    EXPECT_EQ(f.kind, "Invalid __global__ write of size 1 bytes");
    EXPECT_EQ(f.space, "global");
    EXPECT_EQ(f.access, "write");
    EXPECT_EQ(f.access_size, 1);
    EXPECT_EQ(f.function, "oob_write(unsigned char *, unsigned char *, int)");
    EXPECT_EQ(f.file, "01_out_of_bounds_write.cu");
    EXPECT_EQ(f.line, 12);
    EXPECT_TRUE(f.has_thread);
    EXPECT_EQ(f.thread, (std::array<int, 3>{96, 0, 0}));
    EXPECT_EQ(f.block, kBlock8);
    EXPECT_EQ(f.address, "0x7ff5a0e00860");
    EXPECT_EQ(f.problem, "is out of bounds");
    EXPECT_EQ(f.nearest_allocation,
              "and is 16,947,086,945 bytes after the nearest allocation at 0x7ff1aec00000 of size 512 bytes");
    EXPECT_EQ(f.allocation_side, "after");
    EXPECT_EQ(f.allocation_distance, 16947086945);
    EXPECT_EQ(f.allocation_size, 512);
    EXPECT_EQ(describe_finding(f),
              "thread (96,0,0) of block (8,0,0) wrote 1 byte out of bounds at line 12 (oob_write), "
              "16.9 GB after the nearest allocation (512 B)");
}

TEST(SanitizerReport, BacktraceLinesDoNotDisturbTheFinding) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-01-backtrace.txt"));
    EXPECT_EQ(report.error_count, 117024);
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->thread, (std::array<int, 3>{64, 0, 0}));
    EXPECT_EQ(report.first->address, "0x7f35c0e00840");
    EXPECT_EQ(report.first->function, "oob_write(unsigned char *, unsigned char *, int)");
    EXPECT_EQ(report.first->allocation_distance, 16947086913);
}

TEST(SanitizerReport, FarRead) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-02_far_out_of_bounds_read.txt"));
    EXPECT_EQ(report.error_count, 209632);
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->access, "read");
    EXPECT_EQ(report.first->line, 10);
    EXPECT_EQ(report.first->file, "02_far_out_of_bounds_read.cu");
    EXPECT_EQ(report.first->allocation_distance, 1099375314529);
    EXPECT_EQ(describe_finding(*report.first),
              "thread (96,0,0) of block (8,0,0) read 1 byte out of bounds at line 10 (far_read), "
              "1.1 TB after the nearest allocation (512 B)");
}

TEST(SanitizerReport, NullPointerIsBeforeTheNearestAllocation) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-03_null_pointer.txt"));
    EXPECT_EQ(report.error_count, 120704);
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->address, "0x860");
    EXPECT_EQ(report.first->allocation_side, "before");
    EXPECT_EQ(report.first->allocation_distance, 139682511910816);
    EXPECT_EQ(report.first->allocation_size, 65536);
    EXPECT_EQ(describe_finding(*report.first),
              "thread (96,0,0) of block (8,0,0) wrote 1 byte out of bounds at line 11 (null_write), "
              "140 TB before the nearest allocation (65.5 kB)");
}

TEST(SanitizerReport, Trap) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-05_trap.txt"));
    EXPECT_EQ(report.error_count, 1);
    EXPECT_EQ(report.tool_error, "");
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->kind, "Trace/breakpoint trap");
    EXPECT_EQ(report.first->access, "");
    EXPECT_EQ(report.first->access_size, 0);
    EXPECT_EQ(report.first->function, "trapper(unsigned char *, unsigned char *, int)");
    EXPECT_EQ(report.first->file, "05_trap.cu");
    EXPECT_EQ(report.first->line, 10);
    EXPECT_EQ(report.first->block, (std::array<int, 3>{2000, 0, 0}));
    EXPECT_EQ(report.first->address, "");
    EXPECT_EQ(report.first->nearest_allocation, "");
    EXPECT_EQ(describe_finding(*report.first), "thread (0,0,0) of block (2000,0,0): Trace/breakpoint trap at line 10 (trapper)");
}

TEST(SanitizerReport, DeviceAssertion) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-06_device_assert.txt"));
    EXPECT_EQ(report.error_count, 1);
    ASSERT_TRUE(report.assertion);
    EXPECT_EQ(report.assertion->file, "kernels_src/faults/06_device_assert.cu");
    EXPECT_EQ(report.assertion->line, 13);
    EXPECT_EQ(report.assertion->function, "void asserter(unsigned char *, unsigned char *, int)");
    EXPECT_EQ(report.assertion->condition, "i != n / 3");
    EXPECT_EQ(report.assertion->block, (std::array<int, 3>{1333, 0, 0}));
    EXPECT_EQ(report.assertion->thread, (std::array<int, 3>{85, 0, 0}));
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->kind, "Warp assert");
    EXPECT_EQ(report.first->function, "__assertfail");
    EXPECT_EQ(report.first->file, "");
    EXPECT_EQ(report.first->line, 0);
    EXPECT_EQ(report.first->thread, (std::array<int, 3>{85, 0, 0}));
    EXPECT_EQ(describe_finding(*report.first), "thread (85,0,0) of block (1333,0,0): Warp assert in __assertfail");
}

TEST(SanitizerReport, MisalignedVectorRead) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-07_misaligned_float4.txt"));
    EXPECT_EQ(report.error_count, 181088);
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->access_size, 16);
    EXPECT_EQ(report.first->problem, "is misaligned");
    EXPECT_EQ(report.first->allocation_side, "inside");
    EXPECT_EQ(report.first->allocation_distance, -1);
    EXPECT_EQ(report.first->allocation_size, 4194304);
    EXPECT_EQ(report.first->thread, (std::array<int, 3>{0, 0, 0}));
    EXPECT_EQ(describe_finding(*report.first),
              "thread (0,0,0) of block (8,0,0) read 16 bytes at a misaligned address at line 12 (misaligned), "
              "inside an allocation of 4.19 MB");
}

TEST(SanitizerReport, CleanRun) {
    const SanitizerReport report = parse_sanitizer_output(kplay::test::recorded_output("cs-clean.txt"));
    EXPECT_EQ(report.error_count, 0);
    EXPECT_FALSE(report.first);
    EXPECT_FALSE(report.assertion);
    EXPECT_EQ(report.tool_error, "");
}

TEST(SanitizerReport, EmptyAndForeignInput) {
    for (const std::string& text : {std::string(), std::string("hello\nworld\n"), std::string("========="),
                                    std::string("=========\n========= \n"), std::string("========= ERROR SUMMARY: lots errors"),
                                    std::string("========= ERROR SUMMARY: 99999999999 errors")}) {
        const SanitizerReport report = parse_sanitizer_output(text);
        EXPECT_EQ(report.error_count, -1) << text;
        EXPECT_FALSE(report.first) << text;
        EXPECT_FALSE(report.assertion) << text;
        EXPECT_EQ(report.tool_error, "") << text;
    }
}

TEST(SanitizerReport, MalformedDetailsLeaveFieldsEmpty) {
    const SanitizerReport report = parse_sanitizer_output(
        "========= Invalid __global__ write of size x bytes\n"
        "=========     at \n"
        "=========     by thread (1,2) in block (3,4,5)\n"
        "=========     and is many bytes after the nearest allocation\n"
        "x.cu:: void f(): block: [1,2,3], thread: [4,5,6] Assertion `x` failed.\n"
        "y.cu:3: void f(): block: [1,2], thread: [4,5,6] Assertion `x` failed.\n");
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->access, "write");
    EXPECT_EQ(report.first->access_size, 0);
    EXPECT_FALSE(report.first->has_thread);
    EXPECT_EQ(report.first->allocation_side, "");
    EXPECT_EQ(report.first->allocation_distance, -1);
    EXPECT_FALSE(report.assertion);
    EXPECT_EQ(describe_finding(*report.first), "a thread wrote 0 bytes");
}

TEST(SanitizerReport, OlderLocationFormatAndNamespacedAssert) {
    const SanitizerReport report = parse_sanitizer_output(
        "========= Invalid __shared__ read of size 4 bytes\r\n"
        "=========     at 0x70 in /tmp/x.cu:5:kernel(int*)\r\n"
        "=========     by thread (1,0,0) in block (0,2,0)\r\n"
        "=========     Address 0x00000400 is out of bounds\r\n"
        "a.cu:7: void ns::f<int>(int *): block: [0,0,0], thread: [1,0,0] Assertion `p != nullptr` failed.\r\n"
        "========= ERROR SUMMARY: 1 error\r\n");
    EXPECT_EQ(report.error_count, 1);
    ASSERT_TRUE(report.first);
    EXPECT_EQ(report.first->space, "shared");
    EXPECT_EQ(report.first->file, "/tmp/x.cu");
    EXPECT_EQ(report.first->line, 5);
    EXPECT_EQ(report.first->function, "kernel(int*)");
    EXPECT_EQ(report.first->address, "0x00000400");
    EXPECT_EQ(describe_finding(*report.first), "thread (1,0,0) of block (0,2,0) read 4 bytes out of bounds at line 5 (kernel)");
    ASSERT_TRUE(report.assertion);
    EXPECT_EQ(report.assertion->function, "void ns::f<int>(int *)");
    EXPECT_EQ(report.assertion->condition, "p != nullptr");
    EXPECT_EQ(report.assertion->line, 7);
}

TEST(SanitizerReport, EveryTruncationOfTheRecordedOutputParses) {
    for (const char* name : {"cs-01-backtrace.txt", "cs-06_device_assert.txt", "cs-07_misaligned_float4.txt"}) {
        const std::string text = kplay::test::recorded_output(name);
        for (size_t size = 0; size <= text.size(); ++size) {
            const SanitizerReport report = parse_sanitizer_output(text.substr(0, size));
            if (report.first) {
                EXPECT_FALSE(describe_finding(*report.first).empty());
            }
            EXPECT_GE(report.error_count, -1);
        }
    }
    // Cut inside "by thread (64,0,0)": no thread is claimed.
    const std::string text = kplay::test::recorded_output("cs-01-backtrace.txt");
    const size_t cut = text.find("(64,0");
    ASSERT_NE(cut, std::string::npos);
    const SanitizerReport report = parse_sanitizer_output(text.substr(0, cut + 5));
    ASSERT_TRUE(report.first);
    EXPECT_FALSE(report.first->has_thread);
    EXPECT_EQ(report.first->line, 12);
    EXPECT_EQ(report.error_count, -1);
}

// ------------------------------------------------------------------------------------- Nsight Compute

TEST(NcuReport, SixteenPixelsPerThread) {
    std::string error;
    const auto summary = parse_ncu_details_csv(kplay::test::recorded_output("ncu-05_sixteen_pixels_uint4.csv"), &error);
    ASSERT_TRUE(summary) << error;
    EXPECT_EQ(summary->kernel, "gray_uint4(const unsigned char *, unsigned char *, int)");
    EXPECT_EQ(summary->grid, "(250, 1, 1)");
    EXPECT_EQ(summary->block, "(256, 1, 1)");
    EXPECT_DOUBLE_EQ(summary->duration_ns, 3712);
    EXPECT_DOUBLE_EQ(summary->sm_throughput_pct, 16.60);
    EXPECT_DOUBLE_EQ(summary->memory_throughput_pct, 17.33);
    EXPECT_DOUBLE_EQ(summary->dram_throughput_pct, 17.33);
    EXPECT_DOUBLE_EQ(summary->achieved_occupancy_pct, 22.54);
    EXPECT_DOUBLE_EQ(summary->theoretical_occupancy_pct, 100);
    EXPECT_DOUBLE_EQ(summary->l1_hit_pct, 0);
    EXPECT_DOUBLE_EQ(summary->l2_hit_pct, 30.76);
    EXPECT_EQ(summary->registers_per_thread, 31);
    EXPECT_EQ(summary->block_limit_registers, 8);
    EXPECT_EQ(summary->block_limit_smem, 32);
    EXPECT_EQ(summary->block_limit_warps, 8);
    EXPECT_EQ(summary->block_limit_sm, 32);
    EXPECT_DOUBLE_EQ(summary->theoretical_active_warps, 64);
    EXPECT_EQ(summary->smem_config_bytes, 32768);
    EXPECT_EQ(summary->static_smem_bytes, 0);
    EXPECT_EQ(summary->dynamic_smem_bytes, 0);
    EXPECT_EQ(summary->driver_smem_bytes, 1024);
    EXPECT_TRUE(summary->top_stalls.empty());
    EXPECT_EQ(summary->metrics.size(), 56u);
    EXPECT_EQ(summary->metrics[0].section, "GPU Speed Of Light Throughput");
    EXPECT_EQ(summary->metrics[0].name, "DRAM Frequency");
    EXPECT_EQ(summary->metrics[0].unit, "hz");
    EXPECT_EQ(summary->metrics[0].value, "3,181,034,482.76");
    ASSERT_EQ(summary->advice.size(), 4u);  // the WRN and INF rules are not advice
    EXPECT_EQ(summary->advice[0].rfind("This kernel grid is too small to fill the available resources", 0), 0u);
    EXPECT_EQ(summary->advice[1].rfind("On average, each warp of this workload spends 7.7 cycles", 0), 0u);
    EXPECT_EQ(summary->advice[2].rfind("If you execute __syncthreads()", 0), 0u);
    EXPECT_EQ(summary->advice[3].rfind("The difference between calculated theoretical (100.0%)", 0), 0u);
}

TEST(NcuReport, WarpTiledSgemm) {
    const auto summary = parse_ncu_details_csv(kplay::test::recorded_output("ncu-08_warp_tiling.csv"));
    ASSERT_TRUE(summary);
    EXPECT_EQ(summary->kernel, "sgemm_warptiled(const float *, const float *, float *, int, int, int)");
    EXPECT_EQ(summary->grid, "(8, 8, 1)");
    EXPECT_DOUBLE_EQ(summary->duration_ns, 110624);
    EXPECT_DOUBLE_EQ(summary->sm_throughput_pct, 33.27);
    EXPECT_DOUBLE_EQ(summary->memory_throughput_pct, 29.35);
    EXPECT_DOUBLE_EQ(summary->dram_throughput_pct, 1.58);
    EXPECT_DOUBLE_EQ(summary->l1_hit_pct, 2.90);
    EXPECT_DOUBLE_EQ(summary->l2_hit_pct, 73.65);
    EXPECT_DOUBLE_EQ(summary->achieved_occupancy_pct, 12.49);
    EXPECT_DOUBLE_EQ(summary->theoretical_occupancy_pct, 25);
    EXPECT_EQ(summary->registers_per_thread, 128);
    EXPECT_EQ(summary->block_limit_registers, 2);
    EXPECT_EQ(summary->block_limit_smem, 4);
    EXPECT_EQ(summary->smem_config_bytes, 135168);
    EXPECT_EQ(summary->static_smem_bytes, 32768);
    ASSERT_EQ(summary->advice.size(), 5u);
    EXPECT_NE(summary->advice[4].find("limited by the number of required registers"), std::string::npos);
}

TEST(NcuReport, FailuresSayWhy) {
    std::string error;
    EXPECT_FALSE(parse_ncu_details_csv("", &error));
    EXPECT_EQ(error, "the Nsight Compute output is empty");
    EXPECT_FALSE(parse_ncu_details_csv(" \n\r\n", &error));
    EXPECT_EQ(error, "the Nsight Compute output is empty");
    EXPECT_FALSE(parse_ncu_details_csv("kernels_src/x.cu: task grayscale\n  compile sm_90\n", &error));
    EXPECT_EQ(error, "no Nsight Compute CSV table in the output (no header row with \"Metric Name\")");
    EXPECT_FALSE(parse_ncu_details_csv("==PROF== Disconnected from process 1\n==WARNING== No kernels were profiled.\n", &error));
    EXPECT_EQ(error, "Nsight Compute profiled no kernel: no launch matched the kernel name");
    EXPECT_FALSE(parse_ncu_details_csv(kplay::test::recorded_output("ncu-stalls-raw.csv"), &error));
    EXPECT_EQ(error, "this is not the details page (--page details): it has no \"Metric Name\" column");
    const std::string details = kplay::test::recorded_output("ncu-05_sixteen_pixels_uint4.csv");
    const std::string header = details.substr(details.find("\"ID\""), details.find('\n', details.find("\"ID\"")) - details.find("\"ID\"") + 1);
    EXPECT_FALSE(parse_ncu_details_csv(header, &error));
    EXPECT_EQ(error, "the Nsight Compute table has a header but no rows");
    EXPECT_FALSE(parse_ncu_details_csv(header + "\"0\",\"1\",\"short\"\n", nullptr));  // no error pointer: fine
}

TEST(NcuReport, UnitsQuotesAndMissingValues) {
    const std::string text =
        "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Type\",\"Rule Description\"\n"
        "\"0\",\"f<1, \"\"x\"\">(int)\",\"S\",\"Duration\",\"usecond\",\"3.5\",\n"
        "\"0\",\"f<1, \"\"x\"\">(int)\",\"S\",\"L2 Hit Rate\",\"%\",\"no data\",\n"
        "\"0\",\"f<1, \"\"x\"\">(int)\",\"S\",\"Registers Per Thread\",\"register/thread\",\"12.5\",\n"
        "\"0\",\"f<1, \"\"x\"\">(int)\",\"S\",\"Memory Throughput\",\"byte/s\",\"1,000\",\n"
        "\"0\",\"f<1, \"\"x\"\">(int)\",\"S\",\"\",\"\",\"\",\"OPT\",\"two\nlines\"\n"
        "\"1\",\"g(int)\",\"S\",\"Duration\",\"ns\",\"7\",\n";
    const auto summary = parse_ncu_details_csv(text);
    ASSERT_TRUE(summary);
    EXPECT_EQ(summary->kernel, "f<1, \"x\">(int)");
    EXPECT_DOUBLE_EQ(summary->duration_ns, 3500);  // the second kernel's 7 ns is not read
    EXPECT_DOUBLE_EQ(summary->l2_hit_pct, -1);
    EXPECT_EQ(summary->registers_per_thread, -1);  // not a whole number
    EXPECT_DOUBLE_EQ(summary->memory_throughput_pct, -1);  // byte/s, not %
    ASSERT_EQ(summary->advice.size(), 1u);
    EXPECT_EQ(summary->advice[0], "two\nlines");
    const auto ms = parse_ncu_details_csv(
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\"0\",\"k\",\"Duration\",\"msecond\",\"1.25\"\n");
    ASSERT_TRUE(ms);
    EXPECT_DOUBLE_EQ(ms->duration_ns, 1.25e6);
}

TEST(NcuReport, EveryTruncationOfTheRecordedTableParses) {
    const std::string text = kplay::test::recorded_output("ncu-08_warp_tiling.csv");
    for (size_t size = 0; size <= text.size(); size += 11) {
        std::string error;
        const auto summary = parse_ncu_details_csv(text.substr(0, size), &error);
        if (summary) {
            EXPECT_EQ(summary->kernel, "sgemm_warptiled(const float *, const float *, float *, int, int, int)");
        } else {
            EXPECT_FALSE(error.empty());
        }
    }
    // Cut before the Occupancy section: what came before is kept, the rest stays unknown.
    const auto cut = parse_ncu_details_csv(text.substr(0, text.find("\"Max Active Clusters\"")));
    ASSERT_TRUE(cut);
    EXPECT_DOUBLE_EQ(cut->duration_ns, 110624);
    EXPECT_EQ(cut->registers_per_thread, 128);
    EXPECT_DOUBLE_EQ(cut->theoretical_occupancy_pct, -1);
    EXPECT_EQ(cut->block_limit_registers, -1);
}

TEST(NcuReport, ExplainsFailures) {
    const std::string perm =
        "==PROF== Connected to process 12 (/tmp/kg/bin/kplay-worker)\n"
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the "
        "target device 0. For instructions on enabling permissions and to get more information see "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM\n";
    const std::string why = explain_ncu_failure(perm, 1);
    EXPECT_NE(why.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
    EXPECT_NE(why.find("root"), std::string::npos);
    EXPECT_NE(explain_ncu_failure("bash: ncu: command not found\n", 127).find("was not found"), std::string::npos);
    EXPECT_NE(explain_ncu_failure("", 127).find("was not found"), std::string::npos);
    EXPECT_NE(explain_ncu_failure("==WARNING== No kernels were profiled.\n", 0).find("profiled no kernel"), std::string::npos);
    EXPECT_EQ(explain_ncu_failure("hello\r\n==ERROR== The application returned an error code (1).\r\n", 1),
              "ncu failed: The application returned an error code (1).");
    EXPECT_EQ(explain_ncu_failure(kplay::test::recorded_output("ncu-05_sixteen_pixels_uint4.csv"), 0), "");
    EXPECT_EQ(explain_ncu_failure("", 3), "ncu exited with code 3");
}
