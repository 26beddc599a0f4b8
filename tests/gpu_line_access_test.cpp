// On a GPU with Nsight Compute: lecture 5's lesson in ncu's per-instruction counters, placed on lines
// through kplay's SASS listing. Ratios, never times: the naive matmul's B loads coalesced (4 sectors per
// request) and its A loads broadcast (1); the tiled matmul's shared loads conflict-free; the naive
// transpose's writes uncoalesced, the shared-tile transpose's writes coalesced with its unpadded tile's
// column read 32-way conflicted, and the padded tile's read conflict-free.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "client/worker_client.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/kernel_inspection.hpp"
#include "inspect/line_profiler.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

// The 1-based line of the kernel file holding `text`; 0 when none does.
int line_with(const std::filesystem::path& file, const std::string& text) {
    std::istringstream in(read_source_file(file));
    int number = 1;
    for (std::string line; std::getline(in, line); ++number)
        if (line.find(text) != std::string::npos) return number;
    return 0;
}

struct Profiled {
    std::string why_not;  // set when the machine cannot (skip)
    LineProfileOutcome outcome;
};

Profiled profile(const std::filesystem::path& file, const std::string& size, std::optional<std::vector<int64_t>> block = std::nullopt) {
    Profiled p;
    if (p.why_not = test::why_no_gpu(); !p.why_not.empty()) return p;
    for (CudaTool tool : {CudaTool::ncu, CudaTool::nvdisasm})
        if (const ToolLookup found = find_cuda_tool(tool); !found.found()) {
            p.why_not = found.missing;
            return p;
        }
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = size;
    request.block = block;
    request.check_test_sizes = false;
    request.warmup = 0;
    request.repeat = 1;
    WorkerOptions options;
    options.worker_path = test::worker_path();
    WorkerClient client(options);
    const RunReport ran = client.wait(client.submit_run(request)).run;
    EXPECT_TRUE(ran.ok()) << ran.error;
    CompileFileRequest compile;
    compile.path = file;
    compile.inspect = true;
    const WorkerResult answer = client.wait(client.submit_compile(compile));
    EXPECT_TRUE(answer.ok()) << answer.failure_message;
    const KernelInspection inspection = inspect_compile(answer.compile, file.string(), 0, true);
    if (!inspection.sass) {
        ADD_FAILURE() << inspection.sass_problem << inspection.problem;
        return p;
    }
    p.outcome = profile_lines_with_ncu(test::cli_path(), request, ran, *inspection.sass, file.string());
    EXPECT_TRUE(p.outcome.access) << p.outcome.problem;
    EXPECT_TRUE(p.outcome.missing.empty()) << "ncu's page lacked a counter kplay reads: " << [&] {
        std::string names;
        for (const std::string& name : p.outcome.missing) names += (names.empty() ? "" : ", ") + name;
        return names;
    }();
    if (p.outcome.access) {
        std::printf("\n%s (%.1f s):\n", file.filename().c_str(), p.outcome.seconds);
        for (const std::string& row : line_access_table(p.outcome.access->profile)) std::printf("  %s\n", row.c_str());
    }
    return p;
}

// The instructions ncu counted on `line` that access the given memory.
std::vector<SassCounters> accesses_on(const NcuLineAccess& access, int line, bool global, bool store) {
    std::vector<SassCounters> found;
    for (const MappedInstruction& i : access.instructions)
        if (i.line == line && i.counters.executed > 0 && (global ? i.counters.global : i.counters.shared) && i.counters.store == store)
            found.push_back(i.counters);
    return found;
}

double per_request(const SassCounters& c, bool global) {
    return static_cast<double>(global ? c.l2_sectors : c.shared_wavefronts) / static_cast<double>(c.executed);
}
double excess(const SassCounters& c, bool global) {
    const int64_t ideal = global ? c.l2_ideal_sectors : c.shared_ideal_wavefronts;
    return ideal > 0 ? static_cast<double>(global ? c.l2_sectors : c.shared_wavefronts) / static_cast<double>(ideal) : 0;
}

}  // namespace

// A 32x8 block: a warp is one row r and 32 columns c, so m[r*k+i] is one address for the warp (a
// broadcast, 1 sector) and n[i*w+c] 32 consecutive floats (4 sectors, the ideal).
TEST(GpuLineAccess, TheNaiveMatmulsBLoadsCoalesceAndItsALoadsBroadcast) {
    const auto file = test::kernels_dir() / "matmul/01_seed_naive.cu";
    const Profiled p = profile(file, "1024", std::vector<int64_t>{32, 8});
    if (!p.why_not.empty()) GTEST_SKIP() << p.why_not;
    ASSERT_TRUE(p.outcome.access);
    const int line = line_with(file, "o += m[r*k+i] * n[i*w+c]");
    ASSERT_GT(line, 0);
    const auto loads = accesses_on(*p.outcome.access, line, true, false);
    ASSERT_GE(loads.size(), 2u) << "the A and B loads of line " << line;
    int broadcast = 0, coalesced = 0;
    for (const SassCounters& c : loads) {
        const double sectors = per_request(c, true);
        SCOPED_TRACE(c.sass + ": " + std::to_string(sectors) + " sectors/request");
        if (sectors <= 1.05) {
            ++broadcast;
        } else if (sectors >= 3.9 && sectors <= 4.1) {
            ++coalesced;
            EXPECT_LE(excess(c, true), 1.05);
        } else {
            ADD_FAILURE() << "neither a broadcast nor coalesced";
        }
    }
    EXPECT_GT(broadcast, 0) << "A's loads";
    EXPECT_GT(coalesced, 0) << "B's loads";
}

TEST(GpuLineAccess, TheTiledMatmulsSharedLoadsAreConflictFree) {
    const auto file = test::kernels_dir() / "matmul/03_tiled_static_smem.cu";
    const Profiled p = profile(file, "1024");
    if (!p.why_not.empty()) GTEST_SKIP() << p.why_not;
    ASSERT_TRUE(p.outcome.access);
    const int line = line_with(file, "p += ms[tr][i] * ns[i][tc]");
    ASSERT_GT(line, 0);
    const auto loads = accesses_on(*p.outcome.access, line, false, false);
    ASSERT_FALSE(loads.empty()) << "shared loads on line " << line;
    for (const SassCounters& c : loads) EXPECT_LE(excess(c, false), 1.05) << c.sass << ": " << c.shared_wavefronts << " wavefronts, ideal " << c.shared_ideal_wavefronts;
    for (const char* store : {"ms[tr][tc] =", "ns[tr][tc] ="}) {
        const int store_line = line_with(file, store);
        for (const SassCounters& c : accesses_on(*p.outcome.access, store_line, false, true)) EXPECT_LE(excess(c, false), 1.05) << c.sass;
    }
}

TEST(GpuLineAccess, TheNaiveTransposesWritesAreUncoalesced) {
    const auto file = test::kernels_dir() / "transpose/01_naive.cu";
    const Profiled p = profile(file, "1024x1024");
    if (!p.why_not.empty()) GTEST_SKIP() << p.why_not;
    ASSERT_TRUE(p.outcome.access);
    const int line = line_with(file, "out[static_cast<size_t>(c) * R + r] = in[");
    ASSERT_GT(line, 0);
    const auto stores = accesses_on(*p.outcome.access, line, true, true);
    const auto loads = accesses_on(*p.outcome.access, line, true, false);
    ASSERT_FALSE(stores.empty());
    ASSERT_FALSE(loads.empty());
    for (const SassCounters& c : stores) {
        EXPECT_GE(per_request(c, true), 16) << c.sass;  // a warp's 32 writes land in 32 rows: 32 sectors
        EXPECT_GE(excess(c, true), 4) << c.sass;
    }
    for (const SassCounters& c : loads) EXPECT_LE(excess(c, true), 1.05) << c.sass;  // the row read coalesces
    const LineAccess* summed = find_line(p.outcome.access->profile, file.string(), line);
    ASSERT_NE(summed, nullptr);
    EXPECT_NE(describe_line_access(*summed).find("uncoalesced"), std::string::npos) << describe_line_access(*summed);
}

TEST(GpuLineAccess, TheSharedTileCoalescesTheWritesAndPaddingRemovesItsBankConflicts) {
    const auto tile = test::kernels_dir() / "transpose/02_shared_tile.cu";
    const Profiled p = profile(tile, "1024x1024");
    if (!p.why_not.empty()) GTEST_SKIP() << p.why_not;
    ASSERT_TRUE(p.outcome.access);
    const int write = line_with(tile, "= tile[tx][ty];");
    ASSERT_GT(write, 0);
    const auto stores = accesses_on(*p.outcome.access, write, true, true);
    ASSERT_FALSE(stores.empty());
    for (const SassCounters& c : stores) EXPECT_LE(excess(c, true), 1.05) << c.sass;
    const auto column_reads = accesses_on(*p.outcome.access, write, false, false);
    ASSERT_FALSE(column_reads.empty());
    for (const SassCounters& c : column_reads) EXPECT_GE(excess(c, false), 16) << c.sass << ": a column of a 32-wide tile is one bank";

    const auto padded = test::kernels_dir() / "transpose/03_padded_tile.cu";
    const Profiled q = profile(padded, "1024x1024");
    ASSERT_TRUE(q.outcome.access);
    bool any = false;
    for (const MappedInstruction& i : q.outcome.access->instructions)
        if (i.counters.shared && !i.counters.store && i.counters.executed > 0) {
            any = true;
            EXPECT_LE(excess(i.counters, false), 1.05) << i.counters.sass << " on line " << i.line;
        }
    EXPECT_TRUE(any) << "the padded tile's shared reads";
}
