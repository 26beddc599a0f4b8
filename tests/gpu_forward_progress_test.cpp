// What the emulated device now does for blocks that wait for one another, and for a barrier after an
// early return, checked against the GPU: the radix-sort digit pass whose blocks wait for the grid's
// last block (tests/data/forward_progress/radix_digit_pass.cu) runs and is correct at every size; a
// __syncthreads() after whole warps returned releases and the threads' results are what they computed;
// and, on its own, the same after only some lanes of a warp returned (the CUDA Programming Guide says
// the barrier waits only for the non-exited threads, which the emulated device follows: if a GPU hung
// here the emulated device would be wrong, so run that test alone, under a timeout).
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

Engine& engine() {
    static test::TempDir cache;
    static Engine instance([] {
        EngineConfig config = default_engine_config();
        config.cache_dir = cache.path();
        return config;
    }());
    return instance;
}

RunReport run_on_gpu(const std::filesystem::path& file) {
    RunRequest request;
    request.kernel_path = file;
    request.warmup = 1;
    request.repeat = 3;
    request.measure_ceiling = false;
    return engine().run(request);
}

void expect_passes_everywhere(const RunReport& report) {
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_FALSE(report.emulated);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

TEST(GpuForwardProgress, ARadixPassWhoseBlocksWaitForTheLastRunsOnTheGpu) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    expect_passes_everywhere(run_on_gpu(test::data_dir() / "forward_progress" / "radix_digit_pass.cu"));
}

// Threads past n return before the barrier; the others pair up through shared memory after it. At
// n=4000 the last block keeps 160 threads (5 whole warps), at n=1000 it keeps 232 (7 warps and 8 lanes).
std::string barrier_after_return(const std::string& sizes) {
    return "// kplay-sizes: n " + sizes + R"(
// kplay-buffer: in i32[n] in init=iota(0,1)
// kplay-buffer: out i32[n] out check=exact
// kplay: block=256

__global__ void pairs(const int* in, int* out, int n) {
    __shared__ int tile[256];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[t] * 10 + tile[t ^ 1];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* in, int* out, int n) {
    for (int i = 0; i < n; ++i) out[i] = in[i] * 10 + in[i ^ 1];
}
#endif
)";
}

TEST(GpuForwardProgress, ABarrierAfterWholeWarpsReturnedReleasesOnTheGpu) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    expect_passes_everywhere(run_on_gpu(dir.write("pairs.cu", barrier_after_return("default=4000 test=160,4000"))));
}

TEST(GpuForwardProgressAlone, ABarrierAfterSomeLanesOfAWarpReturnedReleasesOnTheGpu) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    expect_passes_everywhere(run_on_gpu(dir.write("pairs.cu", barrier_after_return("default=1000 test=1000,1002"))));
}

}  // namespace
}  // namespace kplay
