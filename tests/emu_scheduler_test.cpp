// The emulated device's scheduler: warp operations that honour their masks, the warp reductions and
// matches, the counting barriers, forward progress of threads that spin on a flag, and cooperative
// launches with their grid barrier. Each runs in forward, reverse and random thread order.
#include <gtest/gtest.h>

#include <chrono>

#include "emu_harness.hpp"
#include "error_code_names.hpp"

namespace kplay {
namespace {

using test::EmuKernel;
using test::kEveryOrder;

EmuKernel::Launch block_of(unsigned threads, ThreadOrder order, unsigned blocks = 1) {
    EmuKernel::Launch launch;
    launch.grid = {blocks, 1, 1};
    launch.block = {threads, 1, 1};
    launch.order = order;
    launch.seed = 11;
    return launch;
}

TEST(EmuScheduler, AShuffleWithAPartialMaskCompletesBesideABarrier) {
    // Lanes 0-7 of warp 0 shuffle among themselves while the block's other 248 threads wait at
    // __syncthreads(); in warp 1, lanes 16-23 exchange under their own mask, then the whole warp votes.
    EmuKernel kernel(R"(
__global__ void k(int* out, unsigned* votes) {
    const int t = threadIdx.x;
    int v = t * 10;
    if (t < 8) v = __shfl_down_sync(0xffu, v, 1, 8);
    if (t >= 48 && t < 56) v = __shfl_xor_sync(0xff0000u, v, 1);
    __syncthreads();
    out[t] = v;
    if (t >= 32 && t < 64) votes[t - 32] = __ballot_sync(0xffffffffu, v % 20 == 0);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* out = kernel.buffer<int>("out", 256, -1);
    unsigned* votes = kernel.buffer<unsigned>("votes", 32, 0u);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        const auto result = kernel.launch({&out, &votes}, block_of(256, order));
        ASSERT_TRUE(result.ok) << result.error;
        unsigned expected_votes = 0;
        for (int t = 0; t < 256; ++t) {
            int expected = t * 10;
            if (t < 8) expected = t < 7 ? (t + 1) * 10 : t * 10;
            if (t >= 48 && t < 56) expected = (t ^ 1) * 10;
            EXPECT_EQ(out[t], expected) << "thread " << t;
            if (t >= 32 && t < 64 && expected % 20 == 0) expected_votes |= 1u << (t - 32);
        }
        for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(votes[lane], expected_votes) << "lane " << lane;
    }
}

TEST(EmuScheduler, WarpReductionsMatchesAndCountingBarriers) {
    EmuKernel kernel(R"(
__global__ void k(unsigned* out) {
    const unsigned t = threadIdx.x, lane = t % 32;
    unsigned* o = out + t * 10;
    o[0] = __reduce_add_sync(0xffffffffu, lane);
    o[1] = (unsigned)__reduce_min_sync(0xffffffffu, (int)lane - 5);
    o[2] = __reduce_max_sync(0xffffffffu, lane * 3u);
    o[3] = __reduce_and_sync(0xffffffffu, lane | 0x100u);
    o[4] = __reduce_or_sync(0xffffffffu, 1u << lane);
    o[5] = __reduce_xor_sync(0xffffffffu, lane);
    o[6] = __match_any_sync(0xffffffffu, lane / 4);
    int all = 0;
    o[7] = __match_all_sync(0xffffffffu, t / 32, &all) + (all ? 1000u : 0u);
    o[8] = lane < 16 ? __reduce_add_sync(0xffffu, 1u) : 0u;
    o[9] = __syncthreads_count(t % 3 == 0) + 1000u * __syncthreads_and(t < 1000) + 2000u * __syncthreads_or(t == 5);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    unsigned* out = kernel.buffer<unsigned>("out", 64 * 10, 0u);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        const auto result = kernel.launch({&out}, block_of(64, order));
        ASSERT_TRUE(result.ok) << result.error;
        for (unsigned t = 0; t < 64; ++t) {
            const unsigned lane = t % 32, *o = out + t * 10;
            SCOPED_TRACE("thread " + std::to_string(t));
            EXPECT_EQ(o[0], 496u);
            EXPECT_EQ(o[1], static_cast<unsigned>(-5));
            EXPECT_EQ(o[2], 93u);
            EXPECT_EQ(o[3], 0x100u);
            EXPECT_EQ(o[4], 0xffffffffu);
            EXPECT_EQ(o[5], 0u);  // 0 ^ 1 ^ ... ^ 31
            EXPECT_EQ(o[6], 0xfu << (lane / 4 * 4));
            EXPECT_EQ(o[7], 0xffffffffu + 1000u);
            EXPECT_EQ(o[8], lane < 16 ? 16u : 0u);
            EXPECT_EQ(o[9], 22u + 1000u + 2000u);  // 22 of 64 threads are multiples of 3
        }
    }
}

// Threads of one block wait for a flag that another thread of the block sets, polling it four ways.
const char* kSpinningThreads = R"(
__global__ void k(int* flag, int* out, int mode, int setter) {
    const int t = threadIdx.x;
    volatile int* seen = flag;
    if (t == setter) {
        out[t] = 7;
        __threadfence();
        if (mode == 1) *seen = 1;
        else atomicExch(flag, 1);
        return;
    }
    switch (mode) {
        case 0: while (atomicAdd(flag, 0) == 0) {} break;
        case 1: while (*seen == 0) {} break;
        case 2: while (*seen == 0) __threadfence(); break;
        default: while (*seen == 0) __nanosleep(100); break;
    }
    out[t] = out[setter] + 1;
}
)";

TEST(EmuScheduler, ThreadsSpinningOnAFlagMakeProgress) {
    EmuKernel kernel(kSpinningThreads);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* flag = kernel.buffer<int>("flag", 1, 0);
    int* out = kernel.buffer<int>("out", 128, 0);
    const char* names[] = {"atomicAdd(&flag, 0)", "a volatile load", "a volatile load and __threadfence()", "a volatile load and __nanosleep()"};
    for (int mode = 0; mode < 4; ++mode)
        for (int setter : {0, 127})
            for (ThreadOrder order : kEveryOrder) {
                SCOPED_TRACE(std::string(names[mode]) + ", set by thread " + std::to_string(setter) + ", " + thread_order_name(order));
                *flag = 0;
                EmuKernel::Launch launch = block_of(128, order);
                launch.timeout_s = 20;
                const auto start = std::chrono::steady_clock::now();
                const auto result = kernel.launch({&flag, &out, &mode, &setter}, launch);
                ASSERT_TRUE(result.ok) << result.error;
                for (int t = 0; t < 128; ++t) ASSERT_EQ(out[t], t == setter ? 7 : 8) << "thread " << t;
                // A spin on a plain volatile load waits for the preemption timer (a millisecond or two per thread).
                EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
            }
}

const char* kGridSync = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* data, int* out, int n, int early_exit) {
    cg::grid_group grid = cg::this_grid();
    const int i = (int)grid.thread_rank();
    if (early_exit && blockIdx.x == 3) return;
    data[i] = i * 3;
    grid.sync();
    out[i] = data[(i + 97) % n] + (grid.is_valid() ? 1 : 0);
}
)";

TEST(EmuScheduler, ACooperativeLaunchSyncsTheWholeGrid) {
    EmuKernel kernel(kGridSync);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int blocks = 8, threads = 64, n = blocks * threads;
    int* data = kernel.buffer<int>("data", n, -1);
    int* out = kernel.buffer<int>("out", n, -1);
    int count = n, early = 0;
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        EmuKernel::Launch launch = block_of(threads, order, blocks);
        launch.cooperative = true;
        const auto result = kernel.launch({&data, &out, &count, &early}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        EXPECT_EQ(result.workers, blocks);
        for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], (i + 97) % n * 3 + 1) << "thread " << i;
    }
}

TEST(EmuScheduler, GridSyncOutsideACooperativeLaunchIsRefusedWithTheReason) {
    EmuKernel kernel(kGridSync);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* data = kernel.buffer<int>("data", 64, 0);
    int* out = kernel.buffer<int>("out", 64, 0);
    int count = 64, early = 0;
    const auto result = kernel.launch({&data, &out, &count, &early}, block_of(32, ThreadOrder::forward, 2));
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(result.error_code, "KPLAY_EMULATION_FAILED");
    EXPECT_NE(result.error.find("this_grid().sync() at emu/test.cu:9 needs a cooperative launch"), std::string::npos) << result.error;
}

TEST(EmuScheduler, ACooperativeGridTooLargeToHoldIsRefused) {
    EmuKernel kernel(kGridSync);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* data = kernel.buffer<int>("data", 1, 0);
    int count = 1, early = 0;
    EmuKernel::Launch launch = block_of(1024, ThreadOrder::forward, 132);
    launch.cooperative = true;
    const auto result = kernel.launch({&data, &data, &count, &early}, launch);
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(result.error_code, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE");
    EXPECT_EQ(result.error,
              "A cooperative launch keeps every block of its grid resident at once, and the emulated device holds at most 16384 threads "
              "in at most 512 blocks together; this grid has 132 blocks of 1024 threads (135168). Launch fewer blocks (a grid-stride "
              "loop covers the rest).");
}

TEST(EmuScheduler, AGridBarrierSomeBlocksNeverReachIsADeadlock) {
    EmuKernel kernel(kGridSync);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int n = 8 * 32;
    int* data = kernel.buffer<int>("data", n, 0);
    int* out = kernel.buffer<int>("out", n, 0);
    int count = n, early = 1;
    EmuKernel::Launch launch = block_of(32, ThreadOrder::forward, 8);
    launch.cooperative = true;
    const auto result = kernel.launch({&data, &out, &count, &early}, launch);
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(result.error_code, "KPLAY_DEADLOCK");
    EXPECT_EQ(result.error,
              "Deadlock: this_grid().sync() at emu/test.cu:9 can never release: 7 of 8 blocks wait there and 1 (block (3,0,0) "
              "among them) have already returned; every thread of the grid must reach it");
}

}  // namespace
}  // namespace kplay
