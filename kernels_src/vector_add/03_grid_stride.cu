// kplay: kernel=vector_add_grid_stride launch=1d block=256 grid=sms*8
//
// Step 3 of the vector_add ladder: the float4 kernel as a grid-stride loop (PMPP chapter 6's thread
// coarsening). The grid is sized to the GPU, not to n: 8 blocks of 256 threads per SM (sms is the
// device's SM count) is the 2048 threads an H200 SM holds, so the whole grid is resident at once and
// no block is ever launched after the first wave. Each thread walks the float4s t, t+T, t+2T, ... (T
// the number of threads in the grid), so a warp still reads 512 consecutive bytes per array per
// iteration, and the loop covers any n; the at most 3 elements past the last float4 are done by one
// thread each. What still limits it: little. Each thread has 32 bytes of loads in flight per
// iteration (more where the compiler unrolls; __restrict__ lets it move loads above earlier stores),
// 64 KiB per SM at 2048 threads, more than Little's law asks (~4.8 TB/s times ~1 us of latency is
// ~36 KiB per SM). The rest is DRAM itself: turning the bus around between reads and writes, which
// the copy ceiling pays too.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/vector_add/*.cu --repeat 20): 0.1899 ms, 4241 GB/s
// = 102.7% of the copy ceiling (4129 GB/s).
//
// kplay-task: name=vector_add reference=host view=series
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: a f32[n] in init=uniform(-1,1)
// kplay-buffer: b f32[n] in init=uniform(-1,1)
// kplay-buffer: c f32[n] out check=exact
// kplay-torch: c = a + b
// kplay-cost: bytes=12*n ceiling=copy

__global__ void vector_add_grid_stride(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t vecs = static_cast<size_t>(n) / 4;  // whole float4s
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* c4 = reinterpret_cast<float4*>(c);
    for (size_t v = first; v < vecs; v += stride) {
        const float4 va = a4[v], vb = b4[v];
        c4[v] = make_float4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w);
    }
    // The tail: elements 4*vecs .. n-1 (0 to 3 of them), one per thread of the first block.
    const size_t j = 4 * vecs + first;
    if (j < static_cast<size_t>(n)) c[j] = a[j] + b[j];
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
