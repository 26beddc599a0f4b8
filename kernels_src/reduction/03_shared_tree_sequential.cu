// kplay: kernel=reduce_sequential launch=1d block=256 requires=block_x==256
//
// Step 3 of the reduction ladder: the same tree with sequential addressing (PMPP chapter 10's
// convergent kernel). At each level the first s threads add partial[t + s] into partial[t], for
// s = 128, 64, ..., 1. The active threads are now the lowest-numbered ones, so whole warps are either
// all active or all idle: at s = 128 warps 0-3 work and warps 4-7 skip the level without issuing its
// instructions, and only the last 5 levels (s < 32) run with a partly active warp. The 32 lanes of a
// warp read 32 consecutive floats, one per shared-memory bank, so there are no bank conflicts either
// (the 2*s*t indexing of the other fix for divergence would make lanes collide in the same bank). And
// the t % (2*s) division is gone. What still limits it: 8 block-wide barriers per 256 elements, the
// last levels keeping a whole warp busy for a few adds, one element per thread (a block lives for one
// load), and still one atomic per 256 elements on a single address.
// BLOCK is a compile-time constant because it sizes the shared array; block=256 in the annotation
// matches it, requires=block_x==256 refuses any other block before launch, and the assert
// guards the file when it is built elsewhere.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/reduction/*.cu --repeat 20): 0.4875 ms, 551 GB/s =
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
}

__global__ void reduce_sequential(const float* __restrict__ x, float* total, int n) {
    assert(blockDim.x == BLOCK);
    __shared__ float partial[BLOCK];
    const unsigned t = threadIdx.x;
    const int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s /= 2) {
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(total, partial[0]);
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
