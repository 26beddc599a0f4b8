// block_sum.cuh: the block-wide sum that steps 5 to 7 of the reduction ladder end with: step 4's warp
// shuffles, then one shared word per warp summed by warp 0. The block is BLOCK threads (the steps'
// annotations launch block=256 and require it).
#pragma once

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

// The sum of v over the block, in thread 0 (the result elsewhere is meaningless).
__device__ __forceinline__ float block_sum(float v) {
    __shared__ float warp_sums[WARPS];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    return warp_sum(warp == 0 && lane < WARPS ? warp_sums[lane] : 0.0f);
}
