// Timings to trust on the GPU: the clocks around the timed repeats are recorded (NVML), and a kernel
// that replays its answer (computes during the two checked launches, then returns at once) fails with
// the reason instead of being timed at nothing, because the timed launches' outputs are checked too.
#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace kplay;

namespace {

// Counts its own complete launches per size (the last block to finish counts one), so within a launch
// every block sees the same count; from the third launch at a size on, it does nothing.
const char* kReplayingKernel = R"(// A vector add that keeps its answer after two launches.
// kplay-sizes: n default=4194304 cpu=4096 test=1025
// kplay-buffer: a f32[n] in init=uniform(-1,1)
// kplay-buffer: b f32[n] in init=uniform(-1,1)
// kplay-buffer: c f32[n] out check=exact
// kplay-cost: bytes=12*n ceiling=copy

__device__ int launched_n;
__device__ unsigned int launches;
__device__ unsigned int blocks_done;

__global__ void replaying_add(const float* a, const float* b, float* c, int n) {
    if (launched_n == n && launches >= 2) return;  // "the answer is already there"
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
            blocks_done = 0;
            launches = launched_n == n ? launches + 1 : 1;
            launched_n = n;
        }
    }
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* a, const float* b, float* c, int n) {
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
#endif
)";

}  // namespace

TEST(GpuTiming, AKernelThatKeepsItsAnswerAcrossLaunchesFailsWithTheReason) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    const auto file = dir.write("replaying_add.cu", kReplayingKernel);
    const test::CliRun run = test::run_cli("run " + file.string() + " --device 0", dir.path() / "cache", {.gpu = true});
    EXPECT_EQ(run.code, 6) << run.output;  // a check FAIL
    EXPECT_NE(run.output.find("the timed launches left 'c' wrong"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("keeps an answer across launches"), std::string::npos) << run.output;
    // The same kernel without the early return passes: the check blames the replay, nothing else.
    std::string honest = kReplayingKernel;
    const std::string skip = "    if (launched_n == n && launches >= 2) return;  // \"the answer is already there\"\n";
    ASSERT_NE(honest.find(skip), std::string::npos);
    honest.erase(honest.find(skip), skip.size());
    const auto honest_file = dir.write("honest_add.cu", honest);
    const test::CliRun passing = test::run_cli("run " + honest_file.string() + " --device 0", dir.path() / "cache", {.gpu = true});
    EXPECT_EQ(passing.code, 0) << passing.output;
    EXPECT_NE(passing.output.find("check      PASS"), std::string::npos) << passing.output;
}

TEST(GpuTiming, ATimedRunRecordsTheClocksItRanAt) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    const std::string kernel = (test::kernels_dir() / "grayscale/01_seed_1d.cu").string();
    const test::CliRun run = test::run_cli("run " + kernel + " --device 0", dir.path() / "cache", {.gpu = true});
    ASSERT_EQ(run.code, 0) << run.output;
    // "clocks     SM 1980 MHz, memory 3201 MHz, 31 -> 33 C, 120 W; steady", as the H200 reports them.
    const size_t line = run.output.find("  clocks     SM ");
    ASSERT_NE(line, std::string::npos) << run.output;
    const std::string clocks = run.output.substr(line, run.output.find('\n', line) - line);
    EXPECT_NE(clocks.find(" MHz, memory "), std::string::npos) << clocks;
    EXPECT_EQ(clocks.find("SM 0 MHz"), std::string::npos) << clocks;
    std::printf("%s\n", clocks.c_str());
    const test::CliRun json = test::run_cli("run " + kernel + " --device 0 --json", dir.path() / "cache", {.gpu = true});
    EXPECT_NE(json.output.find("\"recorded\": true"), std::string::npos) << json.output.substr(0, 2000);
}
