// kplay: kernel=reduce_float4_x4 launch=1d block=256 requires=block_x==256 grid=sms*8
//
// Step 7 of the reduction ladder: step 6 unrolled by hand, four float4s per thread per iteration into
// four separate accumulators. In step 6 each iteration's add depends on the previous one's, and how
// many loads the compiler hoists ahead of them is its choice; here the four 16-byte loads of an
// iteration are independent by construction and all issued before the first add, so every thread
// has 64 bytes in flight (128 KiB per SM, well past what Little's law asks). The four accumulators
// also shorten the chain of dependent float adds. Whole groups of four float4s go through the
// unrolled loop, the float4s left over through step 6's loop, and the last 0 to 3 elements through
// the scalar tail, so any n works. Measured, it is a few percent *below* step 6: step 6 already runs at
// 97% of the read-only ceiling, so there was no latency left to hide, and the longer loop with its
// extra tails only costs issue slots. Kept as the lesson that unrolling helps only while loads wait.
// BLOCK is a compile-time constant because it sizes the warp-sum array; block=256 in the annotation
// matches it, requires=block_x==256 refuses any other block before launch, and the assert
// guards the file when it is built elsewhere.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/reduction/*.cu --repeat 20): 0.0679 ms, 3954 GB/s =
// 93.2% of the read-only ceiling (4244 GB/s).
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only
#include "block_sum.cuh"  // step 4's warp shuffles as a block sum, and BLOCK

__device__ __forceinline__ float sum4(float4 q) { return (q.x + q.y) + (q.z + q.w); }

__global__ void reduce_float4_x4(const float* __restrict__ x, float* total, int n) {
    assert(blockDim.x == BLOCK);
    const size_t stride = static_cast<size_t>(gridDim.x) * BLOCK;
    const size_t first = static_cast<size_t>(blockIdx.x) * BLOCK + threadIdx.x;
    const size_t vecs = static_cast<size_t>(n) / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float v0 = 0.0f, v1 = 0.0f, v2 = 0.0f, v3 = 0.0f;
    size_t i = first;
    // The float4s i, i+T, i+2T, i+3T: a warp still reads 512 consecutive bytes with each of them.
    for (; i + 3 * stride < vecs; i += 4 * stride) {
        const float4 q0 = x4[i], q1 = x4[i + stride], q2 = x4[i + 2 * stride], q3 = x4[i + 3 * stride];
        v0 += sum4(q0);
        v1 += sum4(q1);
        v2 += sum4(q2);
        v3 += sum4(q3);
    }
    for (; i < vecs; i += stride) v0 += sum4(x4[i]);  // up to 3 float4s left for this thread
    const size_t j = 4 * vecs + first;                 // the last 0 to 3 elements
    if (j < static_cast<size_t>(n)) v1 += x[j];
    float v = block_sum((v0 + v1) + (v2 + v3));
    if (threadIdx.x == 0) atomicAdd(total, v);
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
