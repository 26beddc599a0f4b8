// kplay: kernel=reduce_warp_shuffle launch=1d block=256 requires=block_x==256
//
// Step 4 of the reduction ladder: warp shuffles for every level (PMPP chapter 10's exercise on
// warp-level primitives). __shfl_down_sync(mask, v, d) hands each lane the v of lane + d straight
// through registers, with no shared memory and no barrier: the 32 lanes of a warp halve their values
// 5 times (d = 16, 8, 4, 2, 1) and lane 0 holds the warp's sum. The 8 warp sums go through an 8-float
// shared array and one barrier, and warp 0 sums them with 3 more shuffles. Compared with step 3 the 8
// block-wide barriers are down to 1 and the 5 half-idle levels cost one instruction each. What still
// limits it: each thread still loads only one float and each block still ends in an atomic, so a 64M
// run issues 262144 atomics on one address; the tree work itself is now small.
// BLOCK is a compile-time constant because it sizes the warp-sum array; block=256 in the annotation
// matches it, requires=block_x==256 refuses any other block before launch, and the assert
// guards the file when it is built elsewhere.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/reduction/*.cu --repeat 20): 0.4874 ms, 551 GB/s =
// 13.0% of the read-only ceiling (4244 GB/s).
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only
#ifndef __CUDACC_RTC__  // NVRTC has assert built in; nvcc takes it from the C library
#include <assert.h>
#endif

namespace {
constexpr unsigned BLOCK = 256;  // threads per block: the launch's block= must equal it
constexpr unsigned WARPS = BLOCK / 32;
}

// The sum of v over the 32 lanes of the warp, in lane 0 (the other lanes hold partial sums).
__device__ __forceinline__ float warp_sum(float v) {
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

__global__ void reduce_warp_shuffle(const float* __restrict__ x, float* total, int n) {
    assert(blockDim.x == BLOCK);
    __shared__ float warp_sums[WARPS];
    const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
    const int i = blockIdx.x * BLOCK + t;
    // Every lane takes part in the shuffles (the full mask), the ones past the end with zero.
    float v = warp_sum(i < n ? x[i] : 0.0f);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = warp_sum(lane < WARPS ? warp_sums[lane] : 0.0f);
        if (lane == 0) atomicAdd(total, v);
    }
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
