// The emulated CPU device: shipped kernels, warp collectives, atomics, barriers, thread orders, bounds
// checks, deadlocks, timeouts, printf and hostile kernels. Runs everywhere (no GPU needed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "emu/emu_source.hpp"
#include "emu/emulated_limits.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/host_compiler.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "emu/shared_object_check.hpp"
#include "run/engine.hpp"
#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "test_support.hpp"
#include "error_code_names.hpp"
#include "client/worker_client.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;
using test::FaultExpectation;

// Builds a kernel from source and launches it on guarded buffers, below the engine: for kernels whose
// results are not a task's (shuffles, atomics), read straight from the buffers.
class EmuHarness {
public:
    explicit EmuHarness(const std::string& source, const std::string& kernel = "k") {
        HostBuildRequest build;
        build.source = prepare_emulated_source(source, "emu/test.cu", {kernel});
        build.source_path = (dir_.path() / "test.cu").string();
        build.emu_include_dir = emulated_include_dir();
        build.cache_dir = dir_.path();
        const HostBuildResult built = build_with_host_compiler(build);
        EXPECT_TRUE(built.ok) << built.diagnostics;
        shared_object_ = built.shared_object;
        check_shared_object_is_confined(shared_object_, "test.cu");
    }
    // A float or int buffer of `count` elements, filled with `fill`.
    template <class T>
    T* buffer(const std::string& name, size_t count, T fill = T()) {
        buffers_.emplace_back(count * sizeof(T));
        T* data = reinterpret_cast<T*>(buffers_.back().data());
        for (size_t i = 0; i < count; ++i) data[i] = fill;
        labels_.push_back({name, sizeof(T) == 4 ? "float" : "element", sizeof(T), reinterpret_cast<uintptr_t>(data), count * sizeof(T),
                           buffers_.back().mapping_begin(), buffers_.back().mapping_end()});
        return data;
    }
    EmulatedLaunchResult launch(std::vector<void*> args, kplay_emu_dim grid, kplay_emu_dim block, size_t smem = 0,
                                ThreadOrder order = ThreadOrder::forward, uint64_t seed = 1) {
        EmulatedLaunchRequest request;
        request.shared_object = shared_object_;
        request.entry_symbol = emulated_entry_symbol(0);
        request.geometry = {grid, block};
        request.dynamic_smem = smem;
        request.args = std::move(args);
        request.buffers = labels_;
        request.order = order;
        request.seed = seed;
        request.timeout_s = 20;
        return run_emulated_launch(request);
    }

private:
    test::TempDir dir_;
    fs::path shared_object_;
    std::vector<GuardedBuffer> buffers_;
    std::vector<BufferLabel> labels_;
};

EngineConfig engine_config(const fs::path& cache) {
    EngineConfig config = default_engine_config();
    config.cache_dir = cache;
    return config;
}

RunRequest emulated_request(const fs::path& file, const std::string& size) {
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = size;
    request.emulate = true;
    request.emulation_timeout_s = 60;
    return request;
}

TEST(EmulatedDevice, EveryShippedKernelIsCorrectAtRegularAndIrregularSizes) {
    test::TempDir cache;
    Engine engine(engine_config(cache.path()));
    for (const std::string task : {"grayscale", "matmul"}) {
        for (const fs::path& file : test::kernel_files(task)) {
            const std::string text = test::read_file(file);
            const bool inline_ptx = text.find("asm volatile") != std::string::npos;
            const bool gpu_only = text.find(" arch=sm_") != std::string::npos;  // Hopper's rungs: refused by name
            const std::vector<std::string> sizes =
                task == "grayscale" ? std::vector<std::string>{"320x200", "331x197"} : std::vector<std::string>{"128", "127x65x33"};
            for (const std::string& size : sizes) {
                SCOPED_TRACE(file.string() + " at " + size);
                const RunReport report = engine.run(emulated_request(file, size));
                if (gpu_only) {
                    EXPECT_FALSE(report.ok());
                    EXPECT_NE(report.error.find(" asks for what only a GPU has: arch=sm_90a (line 1)"), std::string::npos) << report.error;
                    EXPECT_TRUE(report.compile.ok) << "NVRTC judged the source first: " << report.compile.log;
                    continue;
                }
                if (inline_ptx) {  // cp.async and tensor-core steps: refused with the reason
                    EXPECT_FALSE(report.ok());
                    EXPECT_NE(report.error.find("inline PTX (asm) is not supported on the emulated CPU device"), std::string::npos)
                        << report.error;
                    continue;
                }
                ASSERT_TRUE(report.ok()) << report.error;
                EXPECT_TRUE(report.emulated);
                EXPECT_TRUE(report.check.passed) << report.check.summary;
                EXPECT_EQ(report.device->ordinal, -1);
            }
        }
    }
}

TEST(EmulatedDevice, FaultCorpusIsReportedAsItsHeaderSays) {
    test::TempDir cache;
    Engine engine(engine_config(cache.path()));
    for (const fs::path& file : test::kernel_files("faults")) {
        SCOPED_TRACE(file.string());
        FaultExpectation expected = test::read_fault_expectation(file, "// expect-emulated:");
        if (!expected.found) expected = test::read_fault_expectation(file);
        if (expected.skip) continue;
        RunRequest request = emulated_request(file, "");
        request.emulation_timeout_s = 2;  // the endless loop
        const RunReport report = engine.run(request);
        EXPECT_FALSE(report.ok());
        EXPECT_EQ(stage_name(report.stage), expected.stage) << report.error;
        if (!expected.code.empty()) {
            EXPECT_EQ(report.error_code, expected.code) << report.error;
        }
        const std::string message = report.error + (report.compile.diagnostics.empty() ? "" : report.compile.diagnostics[0].message);
        if (!expected.text.empty()) {
            EXPECT_NE(message.find(expected.text), std::string::npos) << message;
        }
    }
    // The device stays usable: the next run of a good kernel passes.
    const RunReport good = engine.run(emulated_request(test::kernels_dir() / "grayscale/01_seed_1d.cu", "64x48"));
    EXPECT_TRUE(good.passed()) << good.error;
}

TEST(EmulatedDevice, TileWidthOverrideAndTemplatesWork) {
    test::TempDir cache;
    Engine engine(engine_config(cache.path()));
    RunRequest request = emulated_request(test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu", "100x99x101");
    request.arg_overrides["tw"] = "32";
    const RunReport report = engine.run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.launch.block.x, 32);
    EXPECT_EQ(report.launch.dynamic_smem, 2 * 32 * 32 * 4);
}

TEST(EmulatedDevice, WarpShufflesAtEveryWidthIncludingAPartialWarp) {
    // blockDim 48: warp 1 has only 16 live lanes. Each thread records, per width, what four shuffles return.
    EmuHarness harness(R"(
__global__ void k(int* out, int n) {
    const int t = threadIdx.x, lane = t % 32;
    int slot = 0;
    for (int width = 1; width <= 32; width *= 2) {
        out[(slot++ * n) + t] = __shfl_sync(0xffffffff, t * 10, 1, width);
        out[(slot++ * n) + t] = __shfl_up_sync(0xffffffff, t * 10, 1, width);
        out[(slot++ * n) + t] = __shfl_down_sync(0xffffffff, t * 10, 1, width);
        out[(slot++ * n) + t] = __shfl_xor_sync(0xffffffff, t * 10, 1, width);
    }
    out[(slot++ * n) + t] = (int)__ballot_sync(0xffffffff, lane % 2 == 0);
    (void)lane;
}
)");
    const int n = 48;
    int* out = harness.buffer<int>("out", 26 * n, -1);
    int count = n;
    int* out_arg = out;
    const auto result = harness.launch({&out_arg, &count}, {1, 1, 1}, {48, 1, 1});
    ASSERT_TRUE(result.ok) << result.error;
    int slot = 0;
    for (int width = 1; width <= 32; width *= 2) {
        for (int t = 0; t < n; ++t) {
            const int lane = t % 32, warp_base = t - lane, live = t < 32 ? 32 : 16;
            const int group = lane / width * width;
            auto value_of = [&](int src_lane) { return src_lane < live ? (warp_base + src_lane) * 10 : t * 10; };
            SCOPED_TRACE("width " + std::to_string(width) + " thread " + std::to_string(t));
            EXPECT_EQ(out[slot * n + t], value_of(group + 1 % width));
            EXPECT_EQ(out[(slot + 1) * n + t], lane - group >= 1 ? value_of(lane - 1) : t * 10);
            EXPECT_EQ(out[(slot + 2) * n + t], lane - group + 1 < width ? value_of(lane + 1) : t * 10);
            const int other = lane ^ 1;
            EXPECT_EQ(out[(slot + 3) * n + t], other / width * width == group ? value_of(other) : t * 10);
        }
        slot += 4;
    }
    for (int t = 0; t < n; ++t) EXPECT_EQ(static_cast<unsigned>(out[slot * n + t]), t < 32 ? 0x55555555u : 0x5555u) << t;
}

TEST(EmulatedDevice, AtomicsAreAtomicAcrossBlocksOnParallelWorkers) {
    EmuHarness harness(R"(
__global__ void k(int* counter, float* sum, unsigned* maximum) {
    atomicAdd(counter, 1);
    atomicAdd(sum, 0.5f);
    atomicMax(maximum, blockIdx.x * blockDim.x + threadIdx.x);
}
)");
    int* counter = harness.buffer<int>("counter", 1, 0);
    float* sum = harness.buffer<float>("sum", 1, 0.0f);
    unsigned* maximum = harness.buffer<unsigned>("maximum", 1, 0u);
    const auto result = harness.launch({&counter, &sum, &maximum}, {64, 1, 1}, {256, 1, 1});
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(*counter, 64 * 256);
    EXPECT_EQ(*sum, 64 * 256 * 0.5f);  // exact: every partial sum is a multiple of 0.5 below 2^24
    EXPECT_EQ(*maximum, 64u * 256 - 1);
}

const char* kReduction = R"(
__global__ void k(const float* in, float* out, int n) {
    extern __shared__ float partial[];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}
)";

TEST(EmulatedDevice, ReductionWithExternSharedGivesTheSameResultInEveryThreadOrder) {
    EmuHarness harness(kReduction);
    const int n = 1000, blocks = 8;
    float* in = harness.buffer<float>("in", n, 0.0f);
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7);
    float* out = harness.buffer<float>("out", blocks, -1.0f);
    int count = n;
    std::vector<float> first;
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random}) {
        SCOPED_TRACE(thread_order_name(order));
        const auto result = harness.launch({&in, &out, &count}, {blocks, 1, 1}, {128, 1, 1}, 128 * sizeof(float), order, 7);
        ASSERT_TRUE(result.ok) << result.error;
        double total = 0;
        for (int b = 0; b < blocks; ++b) total += out[b];
        double expected = 0;
        for (int i = 0; i < n; ++i) expected += i % 7;
        EXPECT_EQ(total, expected);
        if (first.empty()) first.assign(out, out + blocks);
        else EXPECT_EQ(std::vector<float>(out, out + blocks), first);
    }
}

TEST(EmulatedDevice, AMissingBarrierShowsUpAsDifferentResultsInDifferentOrders) {
    // Each thread writes its slot, then reads its neighbour's without __syncthreads in between.
    EmuHarness harness(R"(
__global__ void k(int* out) {
    __shared__ int slots[64];
    const int t = threadIdx.x;
    slots[t] = t + 1000 * (blockIdx.x + 1);
    out[blockIdx.x * 64 + t] = slots[(t + 1) % 64];
}
)");
    int* out = harness.buffer<int>("out", 64, 0);
    std::vector<std::vector<int>> results;
    for (ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse}) {
        const auto result = harness.launch({&out}, {1, 1, 1}, {64, 1, 1}, 0, order);
        ASSERT_TRUE(result.ok) << result.error;
        results.emplace_back(out, out + 64);
    }
    EXPECT_NE(results[0], results[1]) << "the race did not show: forward and reverse orders gave the same output";
}

TEST(EmulatedDevice, BarrierInsideABranchTheOthersLeaveByReturningReleasesWithAWarning) {
    // Lanes 16-31 skip the barrier and return: as on a GPU since Volta (a barrier waits only for the
    // threads that have not exited), the others pass it, and the run warns that CUDA leaves it undefined.
    // A barrier that threads skip and go on running stays a deadlock (emu_forward_progress_test.cpp).
    EmuHarness harness(R"(
__global__ void k(int* out) {
    if (threadIdx.x < 16) __syncthreads();
    out[threadIdx.x] = 1;
}
)");
    int* out = harness.buffer<int>("out", 32, 0);
    const auto result = harness.launch({&out}, {1, 1, 1}, {32, 1, 1});
    ASSERT_TRUE(result.ok) << result.error;
    for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], 1) << "thread " << t;
    ASSERT_EQ(result.warnings.size(), 1u);
    EXPECT_EQ(result.warnings[0].rfind("__syncthreads() at emu/test.cu:3 released in block (0,0,0) with 16 of its 32 threads already "
                                       "returned (16 lanes of warps whose other lanes wait there)",
                                       0),
              0u)
        << result.warnings[0];
}

TEST(EmulatedDevice, DifferentBarriersReleaseWithAWarning) {
    EmuHarness harness(R"(
__global__ void k(int* out) {
    if (threadIdx.x < 16) __syncthreads();
    else __syncthreads();
    out[threadIdx.x] = 1;
}
)");
    int* out = harness.buffer<int>("out", 32, 0);
    const auto result = harness.launch({&out}, {1, 1, 1}, {32, 1, 1});
    ASSERT_TRUE(result.ok) << result.error;
    ASSERT_EQ(result.warnings.size(), 1u);
    EXPECT_NE(result.warnings[0].find("16 at emu/test.cu:3, 16 at emu/test.cu:4"), std::string::npos) << result.warnings[0];
}

TEST(EmulatedDevice, DynamicSharedMemoryOverflowIsCaught) {
    EmuHarness harness(R"(
__global__ void k(float* out) {
    extern __shared__ float scratch[];
    scratch[threadIdx.x] = 1.0f;
    out[threadIdx.x] = scratch[threadIdx.x];
}
)");
    float* out = harness.buffer<float>("out", 300, 0.0f);
    const auto result = harness.launch({&out}, {1, 1, 1}, {257, 1, 1}, 256 * sizeof(float));
    ASSERT_FALSE(result.ok);
    EXPECT_EQ(result.error_code, "CUDA_ERROR_ILLEGAL_ADDRESS");
    EXPECT_EQ(result.error, "thread (256,0,0) of block (0,0,0) wrote 1 byte past the end of 'dynamic shared memory' (1024 bytes) at emu/test.cu:4");
}

TEST(EmulatedDevice, SoftwareHalfRoundsLikeCuda) {
    EmuHarness harness(R"(
#include <cuda_fp16.h>
__global__ void k(const float* in, float* out, int n) {
    const int i = threadIdx.x;
    if (i < n) out[i] = __half2float(__hadd(__float2half(in[i]), __float2half(1.0f)));
}
)");
    const float values[] = {0.0f, 1.0f, -2.5f, 65504.0f, 70000.0f, 1e-8f, 0.1f, 2049.0f};
    const int n = 8;
    float* in = harness.buffer<float>("in", n, 0.0f);
    float* out = harness.buffer<float>("out", n, 0.0f);
    for (int i = 0; i < n; ++i) in[i] = values[i];
    int count = n;
    const auto result = harness.launch({&in, &out, &count}, {1, 1, 1}, {8, 1, 1});
    ASSERT_TRUE(result.ok) << result.error;
    // Each value rounded to binary16, plus 1, rounded again: 65504 + 1 stays 65504; 70000 is infinity;
    // 0.1 is 0.0999755859375 in half; 2049 rounds to 2048 (ties to even), + 1 -> 2049 -> 2048.
    const float expected[] = {1.0f, 2.0f, -1.5f, 65504.0f, INFINITY, 1.0f, 1.099609375f, 2048.0f};
    for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], expected[i]) << "input " << values[i];
}

TEST(EmulatedDevice, PrintfLinesAreTaggedWithBlockAndThread) {
    EmuHarness harness(R"(
__global__ void k(int* out) {
    if (threadIdx.x == 1) printf("value %d\n", blockIdx.x * 10);
    out[blockIdx.x] = 0;
}
)");
    int* out = harness.buffer<int>("out", 2, 0);
    const auto result = harness.launch({&out}, {2, 1, 1}, {4, 1, 1});
    ASSERT_TRUE(result.ok) << result.error;
    std::vector<std::string> lines = result.printf_lines;
    std::sort(lines.begin(), lines.end());
    EXPECT_EQ(lines, (std::vector<std::string>{"[block (0,0,0) thread (1,0,0)] value 0", "[block (1,0,0) thread (1,0,0)] value 10"}));
}

// ---- bounds checks through the engine: the messages a user reads ----------------------------------

// A grayscale-task kernel whose body is `i` (the thread's pixel) and then `statement` (line 4 of the file).
std::string one_statement_kernel(const std::string& statement) {
    return "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
           statement + "}\n";
}

RunReport run_grayscale_kernel(const std::string& body, const std::string& name, double timeout_s = 60, bool symbols = true,
                               bool sandbox = true) {
    test::TempDir dir;
    const fs::path folder = dir.path() / "emu";
    fs::create_directories(folder);
    const fs::path file = folder / (name + ".cu");
    {
        std::ofstream out(file);
        out << "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=128\n" << body;
    }
    Engine engine(engine_config(dir.path() / "cache"));
    RunRequest request = emulated_request(file, "128x8");  // 1024 pixels: sizes that are multiples of 16
    request.emulation_timeout_s = timeout_s;
    request.emulation_symbol_check = symbols;
    request.emulation_sandbox = sandbox;
    return engine.run(request);
}

TEST(EmulatedDevice, OutOfBoundsWriteReadAndUnderflowNameThreadBufferAndLine) {
    RunReport write = run_grayscale_kernel(
        one_statement_kernel("    if (i < n) out[i + 1] = in[3 * i];\n"),
        "oob_write");
    EXPECT_EQ(write.error_code, "CUDA_ERROR_ILLEGAL_ADDRESS");
    EXPECT_EQ(write.error, "thread (127,0,0) of block (7,0,0) wrote 1 byte past the end of 'out' (1024 bytes) at emu/oob_write.cu:4");

    RunReport read = run_grayscale_kernel(
        one_statement_kernel("    if (i < n) out[i] = in[3 * i + 3];\n"),
        "oob_read");
    EXPECT_EQ(read.error, "thread (127,0,0) of block (7,0,0) read 1 byte past the end of 'in' (3072 bytes) at emu/oob_read.cu:4");

    RunReport under = run_grayscale_kernel(
        one_statement_kernel("    if (i < n) out[i - 2] = in[3 * i];\n"),
        "underflow");
    EXPECT_EQ(under.error, "thread (0,0,0) of block (0,0,0) wrote 2 bytes before the start of 'out' (1024 bytes) at emu/underflow.cu:4");
}

// Every thread of every block faults, on four workers at once: one claims the account and the others wait
// for its exit. A loser that waited with a call the sandbox does not allow ended the process by SIGSYS, so
// the run read "ended by signal Bad system call" now and then (seen on a 2-core CI machine).
TEST(EmulatedDevice, ManyThreadsFaultingAtOnceGiveOneAccount) {
    test::TempDir dir;
    const fs::path folder = dir.path() / "emu";
    fs::create_directories(folder);
    const fs::path file = folder / "all_fault.cu";
    // Every thread writes 16 GiB past the end: each worker's first thread faults as the launch starts.
    std::ofstream(file) << "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=128\n"
                        << one_statement_kernel("    out[i + (1ll << 34)] = in[0];\n");
    Engine engine(engine_config(dir.path() / "cache"));
    RunRequest request = emulated_request(file, "128x8");
    request.emulation_workers = 4;
    request.emulation_track = false;  // a tracked launch runs on one worker
    request.emulation_timeout_s = 10;
    for (int attempt = 0; attempt < 100; ++attempt) {  // the collision is a race: 25 runs showed it one time in 4
        const RunReport report = engine.run(request);
        ASSERT_EQ(report.error_code, "CUDA_ERROR_ILLEGAL_ADDRESS") << "attempt " << attempt << ": " << report.error;
        EXPECT_NE(report.error.find("which is in no buffer"), std::string::npos) << report.error;
    }
}

TEST(EmulatedDevice, EndlessLoopIsStoppedByTheTimeout) {
    RunReport report = run_grayscale_kernel(
        "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
        "    volatile int spin = 1;\n"
        "    while (spin) {}\n"
        "    out[0] = in[0] + n;\n"
        "}\n",
        "endless", 1.0);
    EXPECT_EQ(report.error_code, "KPLAY_TIMEOUT");
    EXPECT_NE(report.error.find("did not finish within 1 s on the emulated device"), std::string::npos) << report.error;
}

TEST(EmulatedDevice, AFailedAssertIsReportedWithItsThreadAndLine) {
    RunReport report = run_grayscale_kernel(one_statement_kernel("    assert(i != 250); if (i < n) out[i] = in[3 * i];\n"), "assert");
    EXPECT_EQ(report.error_code, "CUDA_ERROR_ASSERT");
    EXPECT_EQ(report.error, "thread (122,0,0) of block (1,0,0): assertion `i != 250` failed at emu/assert.cu:4");
}

// ---- hostile kernels: each defence on its own ---------------------------------------------------

struct Hostile {
    const char* name;
    const char* declaration;
    const char* call;
    const char* symbol;
    const char* syscall;  // what the sandbox names when the symbol check is off
};

const Hostile kHostile[] = {
    {"system", "extern \"C\" __device__ int system(const char*);", "system(\"touch /tmp/kplay-hostile-system\")", "system", ""},
    {"file", "extern \"C\" __device__ int open(const char*, int, int); extern \"C\" __device__ long write(int, const void*, unsigned long);",
     "write(open(\"/tmp/kplay-hostile-file\", 0101, 0644), \"x\", 1)", "open", "open"},
    {"socket", "extern \"C\" __device__ int socket(int, int, int);", "socket(2, 1, 0)", "socket", "socket"},
    {"fork", "extern \"C\" __device__ int fork();", "fork()", "fork", "clone"},
};

// The kernel: thread 0 of block 0 makes the hostile call.
std::string hostile_kernel(const Hostile& h) {
    return std::string(h.declaration) +
           "\n__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
           "    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = (unsigned char)" +
           h.call + ";\n}\n";
}

TEST(EmulatedDevice, HostileKernelsAreRefusedBeforeLoading) {
    for (const Hostile& h : kHostile) {
        SCOPED_TRACE(h.name);
        const RunReport report = run_grayscale_kernel(hostile_kernel(h),
                                                      std::string("hostile_") + h.name);
        EXPECT_FALSE(report.ok());
        EXPECT_NE(report.error.find("refused to load the emulated kernel: it calls "), std::string::npos) << report.error;
        EXPECT_NE(report.error.find(std::string("'") + h.symbol + "'"), std::string::npos)
            << report.error;
    }
    EXPECT_FALSE(fs::exists("/tmp/kplay-hostile-system"));
    EXPECT_FALSE(fs::exists("/tmp/kplay-hostile-file"));
}

TEST(EmulatedDevice, HostileKernelsPastTheSymbolCheckAreStoppedByTheSandbox) {
    fs::remove("/tmp/kplay-hostile-system");
    fs::remove("/tmp/kplay-hostile-file");
    for (const Hostile& h : kHostile) {
        SCOPED_TRACE(h.name);
        const RunReport report = run_grayscale_kernel(hostile_kernel(h),
                                                      std::string("sandboxed_") + h.name, 60, /*symbols=*/false);
        EXPECT_FALSE(report.ok());
        EXPECT_EQ(report.error_code, "KPLAY_SANDBOX") << report.error;
        EXPECT_NE(report.error.find("made a system call the emulated device forbids"), std::string::npos) << report.error;
        if (*h.syscall) {
            EXPECT_NE(report.error.find(std::string("(") + h.syscall), std::string::npos) << report.error;
        }
    }
    EXPECT_FALSE(fs::exists("/tmp/kplay-hostile-system")) << "system() ran a command";
    EXPECT_FALSE(fs::exists("/tmp/kplay-hostile-file")) << "a file was created";
}

TEST(EmulatedDevice, KernelsWithCodeTheLoaderWouldRunAreRefused) {
    // The loader calls _init and _fini, and a destructor at unload, by itself: kplay loads the object
    // outside the sandbox to read its parameter table, so none of them may exist.
    for (const char* code : {"extern \"C\" __device__ void _init() { volatile int x = 0; x = 1; }",
                             "extern \"C\" __device__ void _fini() { volatile int x = 0; x = 1; }",
                             "__attribute__((destructor)) static __device__ void late() { volatile int x = 0; x = 1; }"}) {
        SCOPED_TRACE(code);
        const RunReport report = run_grayscale_kernel(std::string(code) + "\n" + one_statement_kernel("    if (i < n) out[i] = in[3 * i];\n"),
                                                      "load_time");
        EXPECT_FALSE(report.ok());
        EXPECT_NE(report.error.find("refused to load the emulated kernel: it has code that runs when it is loaded or unloaded"),
                  std::string::npos)
            << report.error << (report.compile.diagnostics.empty() ? "" : report.compile.diagnostics[0].message);
    }
}

TEST(EmulatedDevice, UnsupportedFeaturesAreNamed) {
    EXPECT_THROW(
        {
            try {
                prepare_emulated_source("__global__ void k() {\n  asm volatile(\"trap;\");\n}\n", "emu/ptx.cu", {"k"});
            } catch (const InputError& error) {
                EXPECT_EQ(std::string(error.what()),
                          "emu/ptx.cu:2: inline PTX (asm) is not supported on the emulated CPU device; run this kernel on a GPU.");
                throw;
            }
        },
        InputError);
    test::TempDir dir;
    HostBuildRequest build;
    build.source = prepare_emulated_source("#include <mma.h>\n__global__ void k() {}\n", "emu/wmma.cu", {"k"});
    build.source_path = (dir.path() / "wmma.cu").string();
    build.emu_include_dir = emulated_include_dir();
    build.cache_dir = dir.path();
    const HostBuildResult built = build_with_host_compiler(build);
    EXPECT_FALSE(built.ok);
    EXPECT_NE(built.diagnostics.find("tensor cores (mma.h) are not supported on the emulated CPU device"), std::string::npos)
        << built.diagnostics;
}

TEST(EmulatedDevice, ThoroughModeNamesTheThreadOfASanitizerReport) {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    try {
        options.extra_environment = sanitizer_worker_environment();
    } catch (const InputError& error) {
        GTEST_SKIP() << error.what();
    }
    WorkerClient client(options);
    test::TempDir dir;
    const fs::path file = dir.write("emu/thorough.cu",
                                    "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=128\n"
                                    "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
                                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "    int local[4] = {1, 2, 3, 4};\n"
                                    "    if (i < n) out[i] = in[i] + local[threadIdx.x % 5];\n"
                                    "}\n");
    RunRequest request = emulated_request(file, "128x2");
    request.emulation_thorough = true;
    const RunReport report = client.wait(client.submit_run(request)).run;
    EXPECT_EQ(report.error_code, "KPLAY_SANITIZER") << report.error;
    EXPECT_EQ(report.error.substr(0, report.error.find('\n')),
              "thread (4,0,0) of block (0,0,0): UBSan: index 4 out of bounds for type 'int [4]' at emu/thorough.cu:5");
    EXPECT_EQ(report.error_line, 5);

    // A correct kernel passes in thorough mode, and says it ran with the sanitizers.
    RunRequest good = emulated_request(test::kernels_dir() / "grayscale/01_seed_1d.cu", "128x16");
    good.emulation_thorough = true;
    const RunReport passed = client.wait(client.submit_run(good)).run;
    EXPECT_TRUE(passed.passed()) << passed.error;
    EXPECT_TRUE(passed.thorough);
    EXPECT_EQ(passed.device->sm_count, 1);
}

TEST(EmulatedDevice, ThoroughModeWithoutTheSanitizerRuntimeSaysHowToGetIt) {
    test::TempDir cache;
    Engine engine(engine_config(cache.path()));
    RunRequest request = emulated_request(test::kernels_dir() / "grayscale/01_seed_1d.cu", "64x4");
    request.emulation_thorough = true;
    const RunReport report = engine.run(request);
    EXPECT_FALSE(report.ok());
    EXPECT_NE(report.error.find("Thorough mode needs a kplay-worker started with the AddressSanitizer runtime"), std::string::npos)
        << report.error;
}

TEST(EmulatedDevice, ExternSharedIsRewrittenOnItsOwnLine) {
    const EmulatedSource source = prepare_emulated_source(
        "extern __shared__ __align__(16) float tiles[];\n__global__ void k(int n) {\n    extern __shared__ int s[];\n    s[0] = n;\n}\n",
        "emu/x.cu", {"k"});
    EXPECT_NE(source.text.find("#line 1 \"emu/x.cu\"\n#define tiles (reinterpret_cast<float*>(::kplay_emu::dynamic_smem()))\n"),
              std::string::npos)
        << source.text;
    EXPECT_NE(source.text.find("    int* const s = (reinterpret_cast<int*>(::kplay_emu::dynamic_smem()));\n    s[0] = n;"), std::string::npos)
        << source.text;
}

}  // namespace
}  // namespace kplay
