// kplay: kernel=vector_add_naive launch=1d block=256
//
// Step 1 of the vector_add ladder: one element per thread (PMPP chapter 2). Thread i reads a[i] and
// b[i] and writes c[i]; the auto grid launches cdiv(n, 256) blocks and the guard i < n drops the
// threads past the end, so any n works. A warp's 32 loads of 4 bytes are consecutive and coalesce into
// full 128-byte lines, so no DRAM byte is wasted. What limits it: each thread has only 8 bytes of loads
// in flight and does a handful of instructions per byte, and n/256 blocks (262144 at 64M) are
// scheduled one after another, so the SMs spend a share of their time starting and retiring blocks
// instead of keeping the memory system full. Expect it close to the ceiling already, but not at it.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/vector_add/*.cu --repeat 20): 0.2382 ms, 3381 GB/s
// = 81.9% of the copy ceiling (4129 GB/s).
//
// kplay-task: name=vector_add reference=host view=series
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: a f32[n] in init=uniform(-1,1)
// kplay-buffer: b f32[n] in init=uniform(-1,1)
// kplay-buffer: c f32[n] out check=exact
// kplay-torch: c = a + b
// kplay-cost: bytes=12*n ceiling=copy

__global__ void vector_add_naive(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
