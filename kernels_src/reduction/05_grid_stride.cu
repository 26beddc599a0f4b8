// kplay: kernel=reduce_grid_stride launch=1d block=256 requires=block_x==256 grid=sms*8
//
// Step 5 of the reduction ladder: many elements per thread (PMPP chapter 10's thread coarsening) and
// one atomic per block. The grid is sized to the GPU, 8 blocks of 256 per SM (2048 threads, all an
// H200 SM holds, so the whole grid is resident at once), and each thread walks a grid-stride loop
// t, t+T, t+2T, ... (T the threads in the grid), adding into a register: the serial adds cost nothing
// next to the loads, and a warp still reads 128 consecutive bytes per iteration. Only then does the
// block combine its 256 partial sums with step 4's shuffles, and one atomic per block means 1056
// atomics for any n instead of n/256. This is the shape of a good reduction: now it is a pure read of
// the input. What still limits it: each load is 4 bytes, so a thread needs many loads in flight (the
// compiler unrolls the loop a little) to keep HBM3e busy, and the load instructions per byte are 4x
// what they could be.
// BLOCK is a compile-time constant because it sizes the warp-sum array; block=256 in the annotation
// matches it, requires=block_x==256 refuses any other block before launch, and the assert
// guards the file when it is built elsewhere.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/reduction/*.cu --repeat 20): 0.1079 ms, 2488 GB/s =
// 58.6% of the read-only ceiling (4244 GB/s).
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only
#include "block_sum.cuh"  // step 4's warp shuffles as a block sum, and BLOCK

__global__ void reduce_grid_stride(const float* __restrict__ x, float* total, int n) {
    assert(blockDim.x == BLOCK);
    const size_t stride = static_cast<size_t>(gridDim.x) * BLOCK;
    float v = 0.0f;
    for (size_t i = static_cast<size_t>(blockIdx.x) * BLOCK + threadIdx.x; i < static_cast<size_t>(n); i += stride)
        v += x[i];
    v = block_sum(v);
    if (threadIdx.x == 0) atomicAdd(total, v);
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
