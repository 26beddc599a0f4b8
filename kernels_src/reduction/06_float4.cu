// kplay: kernel=reduce_float4 launch=1d block=256 requires=block_x==256 grid=sms*8
//
// Step 6 of the reduction ladder: step 5 with 16-byte loads. The grid-stride loop now walks float4s,
// so each load instruction brings 4 elements, a warp reads 512 consecutive bytes per iteration, and a
// thread has 4x the bytes in flight for the same number of outstanding loads: that is what covers
// DRAM latency at HBM3e bandwidth (Little's law: ~4.8 TB/s times ~1 us is ~5 MB in flight, ~36 KB
// per SM, 18 bytes per resident thread). The input starts 16-byte aligned; the 0 to 3 elements past
// the last whole float4 are added by the first threads of the grid, so any n works. The block sum and
// the one atomic per block are step 5's. This step should be at or near the read-only ceiling.
// BLOCK is a compile-time constant because it sizes the warp-sum array; block=256 in the annotation
// matches it, requires=block_x==256 refuses any other block before launch, and the assert
// guards the file when it is built elsewhere.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/reduction/*.cu --repeat 20): 0.0655 ms, 4099 GB/s =
// 96.6% of the read-only ceiling (4244 GB/s).
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only
#include "block_sum.cuh"  // step 4's warp shuffles as a block sum, and BLOCK

__global__ void reduce_float4(const float* __restrict__ x, float* total, int n) {
    assert(blockDim.x == BLOCK);
    const size_t stride = static_cast<size_t>(gridDim.x) * BLOCK;
    const size_t first = static_cast<size_t>(blockIdx.x) * BLOCK + threadIdx.x;
    const size_t vecs = static_cast<size_t>(n) / 4;  // whole float4s
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float v = 0.0f;
    for (size_t i = first; i < vecs; i += stride) {
        const float4 q = x4[i];
        v += (q.x + q.y) + (q.z + q.w);
    }
    const size_t j = 4 * vecs + first;  // the tail: at most 3 elements, one per thread
    if (j < static_cast<size_t>(n)) v += x[j];
    v = block_sum(v);
    if (threadIdx.x == 0) atomicAdd(total, v);
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
