// Cooperative groups on the emulated device: a tiled_partition softmax and a cg::reduce layer norm
// checked against their host references through the engine (so a reference's build reads
// cooperative_groups.h too), and the groups' collectives below the engine: tiles of every size,
// coalesced groups, partitions, scans and the dynamic tiled_partition. Every order of threads.
#include <gtest/gtest.h>

#include "emu_harness.hpp"
#include "run/engine.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;
using test::EmuKernel;
using test::kEveryOrder;

// The task file `name` through the engine on the emulated device, checked against its reference, in
// every order of threads (one engine, so the file is compiled once).
void expect_passes_at_every_size(const std::string& name) {
    test::TempDir dir;
    EngineConfig config = default_engine_config();
    config.cache_dir = dir.path() / "cache";
    // CUDA 13's cooperative_groups.h includes libcu++ (<cuda/std/...>) from the toolkit's CCCL folder,
    // which NVRTC finds only on its include path; the emulated device and the reference use kplay's own.
    config.kernels_include_dir = config.cuda_include_dir / "cccl";
    Engine engine(config);
    RunRequest request;
    request.kernel_path = dir.write("emu/" + name, test::emu_kernel(name));
    request.emulate = true;
    request.emulation_timeout_s = 60;
    request.order_seed = 5;
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(name + ", " + thread_order_name(order));
        request.thread_order = order;
        const RunReport report = engine.run(request);
        ASSERT_TRUE(report.ok()) << report.error << (report.compile.log.empty() ? "" : "\n" + report.compile.log);
        EXPECT_TRUE(report.check.passed) << report.check.summary;
        for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    }
}

TEST(EmuCooperativeGroups, ATiledPartitionSoftmaxMatchesItsReference) { expect_passes_at_every_size("cg_softmax.cu"); }

TEST(EmuCooperativeGroups, ACgReduceLayerNormMatchesItsReference) { expect_passes_at_every_size("cg_layernorm.cu"); }

// this_grid().sync() through the engine: the annotation's cooperative=yes reaches the emulated launch.
TEST(EmuCooperativeGroups, AGridSyncedTwoPhaseSumRunsCooperatively) { expect_passes_at_every_size("cg_grid_sum.cu"); }

// The same file with its annotation's key changed: found from this_grid() without it, the scheduler's
// refusal with cooperative=no, and a grid larger than the device holds at once refused by its code.
TEST(EmuCooperativeGroups, GridSyncIsFoundFromTheSourceAndATooLargeGridIsRefused) {
    test::TempDir dir;
    EngineConfig config = default_engine_config();
    config.cache_dir = dir.path() / "cache";
    config.kernels_include_dir = config.cuda_include_dir / "cccl";
    Engine engine(config);
    const std::string source = test::emu_kernel("cg_grid_sum.cu");
    const std::string key = " cooperative=yes";
    // The annotation's key, not the same words in the file's opening comment.
    const size_t at = source.find(key, source.find("// kplay:"));
    ASSERT_NE(at, std::string::npos);
    RunRequest request;
    request.emulate = true;
    request.emulation_timeout_s = 60;
    request.check_test_sizes = false;

    std::string found = source;
    found.erase(at, key.size());
    request.kernel_path = dir.write("emu/found.cu", found);
    RunReport report = engine.run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    ASSERT_TRUE(report.spec.has_value());
    EXPECT_TRUE(report.spec->cooperative);

    std::string plain = source;
    plain.replace(at, key.size(), " cooperative=no");
    request.kernel_path = dir.write("emu/plain.cu", plain);
    report = engine.run(request);
    EXPECT_FALSE(report.ok());
    EXPECT_NE(report.error.find("needs a cooperative launch"), std::string::npos) << report.error;

    request.kernel_path = dir.write("emu/large.cu", source);
    request.grid = std::vector<int64_t>{600};
    report = engine.run(request);
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.error_code, ErrorCode::cuda_cooperative_launch_too_large) << report.error;
    EXPECT_NE(report.error.find("this grid has 600 blocks"), std::string::npos) << report.error;
}

TEST(EmuCooperativeGroups, TilesOfEverySizeShuffleVoteAndScanWithinThemselves) {
    // Block of 96: three warps, cut into tiles of 32, 8 (from the 32s) and 4 (from the block).
    EmuKernel kernel(R"(
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
    cg::thread_block block = cg::this_thread_block();
    auto t32 = cg::tiled_partition<32>(block);
    auto t8 = cg::tiled_partition<8>(t32);
    auto t4 = cg::tiled_partition<4>(block);
    const int r = block.thread_rank();
    int* o = out + r * 10;
    o[0] = t8.shfl(r, 3);
    o[1] = t8.shfl_down(r, 2);
    o[2] = t4.shfl_xor(r, 1);
    o[3] = (int)t8.ballot(r % 2 == 0);
    o[4] = t32.any(r == 40) + 10 * t32.all(r < 64);
    o[5] = cg::inclusive_scan(t8, 1);
    o[6] = cg::exclusive_scan(t32, 2);
    o[7] = t8.meta_group_rank() * 100 + t8.meta_group_size();
    o[8] = t4.meta_group_rank() * 100 + t4.meta_group_size();
    o[9] = cg::reduce(t4, r, cg::less<int>());
    t8.sync();
    block.sync();
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* out = kernel.buffer<int>("out", 96 * 10, -1);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        EmuKernel::Launch launch;
        launch.block = {96, 1, 1};
        launch.order = order;
        const auto result = kernel.launch({&out}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        for (int r = 0; r < 96; ++r) {
            SCOPED_TRACE("thread " + std::to_string(r));
            const int* o = out + r * 10;
            const int base8 = r / 8 * 8, base4 = r / 4 * 4, rank8 = r % 8;
            EXPECT_EQ(o[0], base8 + 3);
            EXPECT_EQ(o[1], rank8 + 2 < 8 ? r + 2 : r);
            EXPECT_EQ(o[2], r ^ 1);
            EXPECT_EQ(o[3], 0x55);
            EXPECT_EQ(o[4], (r / 32 == 1 ? 1 : 0) + 10 * (r < 64 ? 1 : 0));
            EXPECT_EQ(o[5], rank8 + 1);
            EXPECT_EQ(o[6], r % 32 * 2);
            EXPECT_EQ(o[7], (r % 32) / 8 * 100 + 4);
            EXPECT_EQ(o[8], r / 4 * 100 + 24);
            EXPECT_EQ(o[9], base4);
        }
    }
}

TEST(EmuCooperativeGroups, CoalescedGroupsAreTheLanesThatArriveTogether) {
    // Warp-aggregated atomics (one atomicAdd per coalesced group), and partitions of a tile by value.
    EmuKernel kernel(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int* keep, int* packed, int* counter, int* out) {
    const int t = threadIdx.x;
    if (keep[t]) {
        cg::coalesced_group g = cg::coalesced_threads();
        int first = 0;
        if (g.thread_rank() == 0) first = atomicAdd(counter, (int)g.size());
        first = g.shfl(first, 0);
        packed[first + g.thread_rank()] = t;
        out[t * 4] = (int)g.size();
        out[t * 4 + 1] = g.shfl_up(t, 1);
    }
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group same = cg::labeled_partition(tile, t % 3);
    out[t * 4 + 2] = (int)same.size() * 100 + (int)same.thread_rank();
    cg::coalesced_group odd = cg::binary_partition(tile, t % 2 == 1);
    out[t * 4 + 3] = cg::reduce(odd, 1, cg::plus<int>());
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* keep = kernel.buffer<int>("keep", 64, 0);
    for (int t = 0; t < 64; ++t) keep[t] = (t * 7) % 5 < 2;  // an irregular subset of each warp
    int* packed = kernel.buffer<int>("packed", 64, -1);
    int* counter = kernel.buffer<int>("counter", 1, 0);
    int* out = kernel.buffer<int>("out", 64 * 4, -1);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        *counter = 0;
        for (int i = 0; i < 64; ++i) packed[i] = -1;
        EmuKernel::Launch launch;
        launch.block = {64, 1, 1};
        launch.order = order;
        const auto result = kernel.launch({&keep, &packed, &counter, &out}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        int kept = 0;
        std::vector<int> seen(64, 0);
        for (int t = 0; t < 64; ++t) kept += keep[t];
        EXPECT_EQ(*counter, kept);
        for (int i = 0; i < kept; ++i) ++seen.at(packed[i]);
        for (int t = 0; t < 64; ++t) EXPECT_EQ(seen[t], keep[t]) << "thread " << t << " packed " << seen[t] << " times";
        for (int t = 0; t < 64; ++t) {
            SCOPED_TRACE("thread " + std::to_string(t));
            int in_warp = 0, below = 0, previous = t, same = 0, same_below = 0;
            for (int other = t / 32 * 32; other < t / 32 * 32 + 32; ++other) {
                if (keep[other]) {
                    ++in_warp;
                    if (other < t) ++below, previous = other;
                }
                if (other % 3 == t % 3) ++same, same_below += other < t;
            }
            if (keep[t]) {
                EXPECT_EQ(out[t * 4], in_warp);
                EXPECT_EQ(out[t * 4 + 1], below > 0 ? previous : t);
            }
            EXPECT_EQ(out[t * 4 + 2], same * 100 + same_below);
            EXPECT_EQ(out[t * 4 + 3], 16);
        }
    }
}

TEST(EmuCooperativeGroups, ADynamicTiledPartitionSyncsAndRefusesSizesItCannotRun) {
    EmuKernel kernel(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out, int size) {
    cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), size);
    out[threadIdx.x] = (int)tile.thread_rank() * 1000 + (int)tile.size();
    tile.sync();
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* out = kernel.buffer<int>("out", 64, -1);
    int size = 16;
    EmuKernel::Launch launch;
    launch.block = {64, 1, 1};
    auto result = kernel.launch({&out, &size}, launch);
    ASSERT_TRUE(result.ok) << result.error;
    for (int t = 0; t < 64; ++t) EXPECT_EQ(out[t], t % 16 * 1000 + 16);
    size = 64;
    result = kernel.launch({&out, &size}, launch);
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(result.error,
              "thread (0,0,0) of block (0,0,0): tiled_partition(parent, n) is supported on the emulated CPU device for n = 1, 2, 4, "
              "8, 16 or 32 only at emu/test.cu:5");
}

}  // namespace
}  // namespace kplay
