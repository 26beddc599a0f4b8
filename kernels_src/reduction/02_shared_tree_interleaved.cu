// kplay: kernel=reduce_interleaved launch=1d block=256 requires=block_x==256
//
// Step 2 of the reduction ladder: a reduction tree per block in shared memory (PMPP chapter 10, the
// simple kernel), then one atomicAdd per block instead of one per element: 256 times fewer atomics.
// Each thread puts its element in partial[t]; at level s (1, 2, 4, ..., 128) the threads whose index
// is a multiple of 2*s add partial[t + s] into partial[t], so after log2(256) = 8 levels partial[0]
// holds the block's sum. A barrier between levels makes each level see the previous one's writes.
// What limits it: the active threads are spread out (interleaved addressing): at s = 1 half the
// threads of every warp work and the other half wait at the same branch (divergence), and from s = 32
// on every warp has just a few active lanes, yet all 8 warps are scheduled through all 8 levels. The
// test t % (2*s) is also an integer division by a variable. The tree, not the memory, is the limit;
// and the 262144 atomics of a 64M run still go one by one.
// The block size is a compile-time constant (BLOCK) because it sizes the shared array; the annotation
// launches block=256 to match, and requires=block_x==256 refuses another block (e.g. `--block 128`)
// before anything is launched, instead of returning a wrong sum; the assert guards the file when it is
// built elsewhere.
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
}

__global__ void reduce_interleaved(const float* __restrict__ x, float* total, int n) {
    assert(blockDim.x == BLOCK);
    __shared__ float partial[BLOCK];
    const unsigned t = threadIdx.x;
    const int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? x[i] : 0.0f;  // threads past the end add zero
    __syncthreads();
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        if (t % (2 * s) == 0) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(total, partial[0]);
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
