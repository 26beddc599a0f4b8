// Blocks that wait for other blocks on the emulated device, as a GPU lets them while both are resident:
// a pass whose blocks all wait for the grid's last block (polling an atomic, a volatile load, or a
// volatile load with __nanosleep), look-back chains either way, the same pass as a kplay task tracked
// and untracked at every order; grids that need more blocks resident than a GPU (or the emulated
// device) holds, and waits nothing will end, each named; and a __syncthreads() after some threads
// returned, which releases with a warning, unless threads that skipped it go on running.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "emu_harness.hpp"
#include "error_code_names.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

using test::EmuKernel;
using test::kEveryOrder;

EmuKernel::Launch grid_of(unsigned blocks, unsigned threads, ThreadOrder order, int workers) {
    EmuKernel::Launch launch;
    launch.grid = {blocks, 1, 1};
    launch.block = {threads, 1, 1};
    launch.order = order;
    launch.seed = 5;
    launch.workers = workers;
    return launch;
}

// The line of `source` (1-based, as the emulated build numbers it) that holds `marker`.
int line_of(const std::string& source, const std::string& marker) {
    const size_t at = source.find(marker);
    EXPECT_NE(at, std::string::npos) << marker;
    return 1 + static_cast<int>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string at_line(const std::string& source, const std::string& marker) {
    return "emu/test.cu:" + std::to_string(line_of(source, marker));
}

// Every block publishes a value and arrives; the grid's last block waits for every arrival, adds the
// values and raises the flag; thread 0 of every block waits for the flag (mode: how it polls) while the
// block's other threads wait at __syncthreads(), then every thread writes the total beside its index.
const std::string kWaitForTheLast = R"(
__global__ void k(int* state, int* values, int* out, int mode) {
    volatile int* seen = state;
    if (threadIdx.x == 0) {
        values[blockIdx.x] = blockIdx.x + 1;
        __threadfence();
        atomicAdd(&state[0], 1);
        if (blockIdx.x == gridDim.x - 1) {
            while (atomicAdd(&state[0], 0) < (int)gridDim.x) {}
            int sum = 0;
            for (int b = 0; b < (int)gridDim.x; ++b) sum += ((volatile int*)values)[b];
            state[2] = sum;
            __threadfence();
            atomicExch(&state[1], 1);
        }
        if (mode == 0) while (atomicAdd(&state[1], 0) == 0) {}  // poll: an atomic
        else if (mode == 1) while (seen[1] == 0) {}  // poll: a volatile load
        else while (seen[1] == 0) __nanosleep(100);  // poll: a volatile load and a sleep
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = seen[2] * 1000 + threadIdx.x;
}
)";

TEST(EmuForwardProgress, EveryBlockWaitsForTheLastBlockAndTheGridFinishes) {
    EmuKernel kernel(kWaitForTheLast);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const unsigned blocks = 24, threads = 64;
    int* state = kernel.buffer<int>("state", 3, 0);
    int* values = kernel.buffer<int>("values", blocks, 0);
    int* out = kernel.buffer<int>("out", blocks * threads, -1);
    const char* polls[] = {"an atomic", "a volatile load", "a volatile load and __nanosleep"};
    for (int mode = 0; mode < 3; ++mode)
        for (int workers : {1, 3})
            for (ThreadOrder order : kEveryOrder) {
                SCOPED_TRACE(std::string(polls[mode]) + ", " + std::to_string(workers) + " workers, " +
                             thread_order_name(order));
                for (int i = 0; i < 3; ++i) state[i] = 0;
                const auto start = std::chrono::steady_clock::now();
                const auto result =
                    kernel.launch({&state, &values, &out, &mode}, grid_of(blocks, threads, order, workers));
                ASSERT_TRUE(result.ok) << result.error;
                EXPECT_TRUE(result.warnings.empty());
                const int total = static_cast<int>(blocks * (blocks + 1) / 2);
                for (unsigned i = 0; i < blocks * threads; ++i)
                    ASSERT_EQ(out[i], total * 1000 + static_cast<int>(i % threads)) << "element " << i;
                EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
            }
}

// Each block adds its own number to the sum that the block it waits for published: block i waits for
// block i-1 (a look-back scan by blockIdx) or for block i+1 (which starts after it).
const std::string kChain = R"(
__global__ void k(int* flags, int* sums, int direction) {
    const int b = blockIdx.x, before = b - direction;
    if (threadIdx.x != 0) return;
    int sum = b + 1;
    if (before >= 0 && before < (int)gridDim.x) {
        while (atomicAdd(&flags[before], 0) == 0) {}
        sum += ((volatile int*)sums)[before];
    }
    sums[b] = sum;
    __threadfence();
    atomicExch(&flags[b], 1);
}
)";

TEST(EmuForwardProgress, ALookBackChainFinishesInEitherDirection) {
    EmuKernel kernel(kChain);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int blocks = 40;
    int* flags = kernel.buffer<int>("flags", blocks, 0);
    int* sums = kernel.buffer<int>("sums", blocks, 0);
    for (int direction : {1, -1})
        for (int workers : {1, 3})
            for (ThreadOrder order : kEveryOrder) {
                SCOPED_TRACE((direction > 0 ? "block i waits for i-1, " : "block i waits for i+1, ") +
                             std::to_string(workers) + " workers, " + thread_order_name(order));
                for (int b = 0; b < blocks; ++b) flags[b] = sums[b] = 0;
                const auto result = kernel.launch({&flags, &sums, &direction}, grid_of(blocks, 32, order, workers));
                ASSERT_TRUE(result.ok) << result.error;
                int expected = 0;
                for (int i = 0; i < blocks; ++i) {
                    const int b = direction > 0 ? i : blocks - 1 - i;
                    expected += b + 1;
                    ASSERT_EQ(sums[b], expected) << "block " << b;
                }
            }
}

// The same kind of pass as a task a user writes (tests/data/forward_progress/radix_digit_pass.cu: a
// stable radix-sort digit pass whose blocks wait for the last one), through kplay: tracked and
// untracked, at every order, on one worker and on four.
TEST(EmuForwardProgress, ARadixPassTaskPassesTrackedAndUntrackedAtEveryOrder) {
    for (bool track : {true, false})
        for (int workers : {1, 4}) {
            std::string first_summary;
            for (ThreadOrder order : kEveryOrder) {
                SCOPED_TRACE(std::string(track ? "tracked, " : "untracked, ") + std::to_string(workers) + " workers, " +
                             thread_order_name(order));
                RunRequest request;
                request.kernel_path = test::data_dir() / "forward_progress" / "radix_digit_pass.cu";
                request.emulate = true;
                request.emulation_track = track;
                request.emulation_workers = workers;
                request.thread_order = order;
                request.order_seed = 3;
                request.emulation_timeout_s = 60;
                request.inputs.size = "5000";  // and its second seed
                request.warmup = 0;
                request.repeat = 1;
                const RunReport report = test::scratch_engine().run(request);
                ASSERT_TRUE(report.ok()) << report.error;
                EXPECT_EQ(report.tracked, track);
                EXPECT_TRUE(report.races.empty()) << describe_race(report.races.front());
                EXPECT_TRUE(report.check.passed) << report.check.summary;
                for (const SizeCheck& size : report.check.sizes)
                    EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
                if (first_summary.empty()) first_summary = report.check.summary;
                EXPECT_EQ(report.check.summary, first_summary);
            }
        }
}

// Every block but the last waits for the last block, with one thread polling an atomic.
const std::string kAllWaitForTheLast = R"(
__global__ void k(int* flag) {
    if (blockIdx.x == gridDim.x - 1) {
        if (threadIdx.x == 0) atomicExch(flag, 1);
        return;
    }
    if (threadIdx.x == 0) while (atomicAdd(flag, 0) == 0) {}  // the wait
    __syncthreads();
}
)";

TEST(EmuForwardProgress, AGridNeedingMoreBlocksThanTheEmulatedDeviceHoldsIsNamed) {
    EmuKernel kernel(kAllWaitForTheLast);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* flag = kernel.buffer<int>("flag", 1, 0);
    // 100 blocks of 256 threads: a GPU keeps 1056 resident, the emulated device 64 (16384 threads).
    const auto result = kernel.launch({&flag}, grid_of(100, 256, ThreadOrder::forward, 1));
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(error_code_name(result.error_code), "KPLAY_DEADLOCK");
    const std::string at = at_line(kAllWaitForTheLast, "// the wait");
    EXPECT_EQ(
        result.error,
        "Deadlock: block (0,0,0) waits at " + at +
            " (1 of its 256 threads polls there) for another block, but all 64 "
            "blocks the emulated device keeps resident at once (16384 threads; a GPU keeps 1056: 132 SMs, 8 blocks "
            "each, "
            "as its 2048 threads per SM allow) are waiting too (block (1,0,0) at " +
            at + ", block (2,0,0) at " + at + ", block (3,0,0) at " + at +
            ", ...): this kernel needs more blocks at once than the emulated device can hold; "
            "launch fewer blocks, or run it on a GPU (forward progress between blocks is not guaranteed in CUDA)");
    EXPECT_EQ(result.line, line_of(kAllWaitForTheLast, "// the wait"));
}

TEST(EmuForwardProgress, AGridNeedingMoreBlocksThanAGpuHoldsIsNamedWithWhatLimitsThem) {
    EmuKernel kernel(kAllWaitForTheLast);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* flag = kernel.buffer<int>("flag", 1, 0);
    const std::string at = at_line(kAllWaitForTheLast, "// the wait");
    struct Case {
        unsigned blocks, threads;
        size_t dynamic_smem;
        const char* resident;
    } cases[] = {{4300, 1, 0,
                  "4224 blocks a GPU keeps resident at once (132 SMs, 32 blocks each, as its 32 blocks per SM allow)"},
                 {300, 32, 100 * 1024,
                  "264 blocks a GPU keeps resident at once (132 SMs, 2 blocks each, as its 228 KiB of shared memory "
                  "per SM allow)"}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.resident);
        *flag = 0;
        EmuKernel::Launch launch = grid_of(c.blocks, c.threads, ThreadOrder::forward, 1);
        launch.dynamic_smem = c.dynamic_smem;
        const auto result = kernel.launch({&flag}, launch);
        ASSERT_FALSE(result.ok);
        EXPECT_EQ(error_code_name(result.error_code), "KPLAY_DEADLOCK");
        EXPECT_EQ(
            result.error,
            "Deadlock: block (0,0,0) waits at " + at + " (1 of its " + std::to_string(c.threads) +
                " threads polls there) for another block, but all " + c.resident +
                " are waiting too (block (1,0,0) at " + at + ", block (2,0,0) at " + at + ", block (3,0,0) at " + at +
                ", ...): this kernel needs more blocks at once than a GPU can hold (forward progress between blocks is "
                "not guaranteed in CUDA)");
    }
}

// Every block waits for a flag no block sets.
const std::string kNobodySets = R"(
__global__ void k(int* flag, int mode) {
    if (threadIdx.x == 0) {
        if (mode == 0) while (atomicAdd(flag, 0) == 0) {}  // atomic wait
        else while (*(volatile int*)flag == 0) {}  // volatile wait
    }
    __syncthreads();
}
)";

TEST(EmuForwardProgress, AWaitNothingWillEndIsAnEndlessWaitNamedEarlyWhenCertain) {
    EmuKernel kernel(kNobodySets);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* flag = kernel.buffer<int>("flag", 1, 0);
    int mode = 0;
    EmuKernel::Launch launch = grid_of(3, 64, ThreadOrder::forward, 1);
    launch.timeout_s = 20;
    const auto start = std::chrono::steady_clock::now();
    auto result = kernel.launch({&flag, &mode}, launch);
    ASSERT_FALSE(result.ok);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              10.0);  // long before the timeout
    EXPECT_EQ(error_code_name(result.error_code), "KPLAY_DEADLOCK");
    std::string at = at_line(kNobodySets, "// atomic wait");
    EXPECT_EQ(result.error,
              "Deadlock: block (0,0,0) waits at " + at +
                  " (1 of its 64 threads polls there) for another block, as does every "
                  "block still resident (block (1,0,0) at " +
                  at + ", block (2,0,0) at " + at +
                  "), and none is left to start: nothing will ever set what they wait for (an endless wait)");

    // A volatile load names nothing it reads: the launch runs to its timeout, whose message says where they seemed to
    // wait.
    mode = 1;
    launch.timeout_s = 3;
    result = kernel.launch({&flag, &mode}, launch);
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(error_code_name(result.error_code), "KPLAY_TIMEOUT");
    at = at_line(kNobodySets, "// volatile wait");
    EXPECT_EQ(
        result.error,
        "Kernel did not finish within 3 s on the emulated device and was stopped: block (0,0,0) seemed to wait at " +
            at +
            " (1 of its 64 threads polls there) for another block, as did every block still resident (block (1,0,0) "
            "at " +
            at + ", block (2,0,0) at " + at + "), and none is left to start: an endless wait?");
}

// The threads of each block past `valid` return before the barrier; the others pair up through shared
// memory after it.
const std::string kBarrierAfterReturn = R"(
__global__ void k(const int* in, int* out, int valid) {
    __shared__ int tile[256];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t >= valid) return;
    tile[t] = in[i];
    __syncthreads();  // the barrier
    out[i] = tile[t] * 10 + tile[t ^ 1];
}
)";

TEST(EmuForwardProgress, ABarrierAfterSomeThreadsReturnedReleasesWithAWarningOnce) {
    EmuKernel kernel(kBarrierAfterReturn);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int size = 4 * 256;
    int* in = kernel.buffer<int>("in", size, 0);
    int* out = kernel.buffer<int>("out", size, -1);
    for (int i = 0; i < size; ++i) in[i] = i;
    const std::string at = at_line(kBarrierAfterReturn, "// the barrier");
    struct Case {
        int valid;  // threads of each block that reach the barrier
        const char* returned;
    } cases[] = {
        {160, "96 of its 256 threads already returned (3 whole warps)"},
        {170,
         "86 of its 256 threads already returned (2 whole warps and 22 lanes of warps whose other lanes wait there)"}};
    for (const Case& c : cases)
        for (ThreadOrder order : kEveryOrder) {
            SCOPED_TRACE(std::string(c.returned) + ", " + thread_order_name(order));
            for (int i = 0; i < size; ++i) out[i] = -1;
            int valid = c.valid;
            // Every block's barrier releases so; the warning comes once.
            const auto result = kernel.launch({&in, &out, &valid}, grid_of(4, 256, order, 1));
            ASSERT_TRUE(result.ok) << result.error;
            for (int i = 0; i < size; ++i)
                ASSERT_EQ(out[i], i % 256 < valid ? i * 10 + (i ^ 1) : -1) << "element " << i;
            ASSERT_EQ(result.warnings.size(), 1u);
            EXPECT_EQ(result.warnings[0], "__syncthreads() at " + at + " released in block (0,0,0) with " + c.returned +
                                              ", as a GPU since Volta releases it (a barrier waits only for the "
                                              "threads that have not exited); CUDA leaves a "
                                              "__syncthreads() that not every thread of the block reaches undefined, "
                                              "so keep every thread to the barrier "
                                              "(if (i < n) { ... } around the work instead of an early return)");
        }
}

TEST(EmuForwardProgress, ABarrierThatThreadsSkipAndGoOnRunningStaysADeadlock) {
    // Lanes 16-31 of each warp skip the barrier but do not return: they wait at __syncwarp() for their
    // whole warp, whose lanes 0-15 wait at __syncthreads() for them. A GPU hangs; here it is named.
    const std::string source = R"(
__global__ void k(int* out) {
    __shared__ int tile[64];
    const int t = threadIdx.x;
    if (t % 32 < 16) {
        tile[t] = t;
        __syncthreads();  // half of each warp
        out[t] = tile[t ^ 1];
    }
    __syncwarp();  // the other half
}
)";
    EmuKernel kernel(source);
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* out = kernel.buffer<int>("out", 64, 0);
    for (ThreadOrder order : kEveryOrder) {
        SCOPED_TRACE(thread_order_name(order));
        const auto result = kernel.launch({&out}, grid_of(1, 64, order, 1));
        ASSERT_FALSE(result.ok);
        EXPECT_EQ(error_code_name(result.error_code), "KPLAY_DEADLOCK");
        EXPECT_EQ(result.error,
                  "Deadlock: block (0,0,0) cannot go on: 32 threads wait at a warp operation (first: thread (16,0,0) "
                  "of block "
                  "(0,0,0) at " +
                      at_line(source, "// the other half") +
                      ") and 32 at __syncthreads() (first: " + at_line(source, "// half of each warp") + ")");
    }
}

}  // namespace
}  // namespace kplay
