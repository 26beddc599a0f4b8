// kplay: kernel=vector_add_float4 launch=1d block=256 grid=cdiv(n,4*256)
//
// Step 2 of the vector_add ladder: four elements per thread through 16-byte loads and stores (float4),
// the widest access one instruction makes. Compared with step 1 each thread has 32 bytes of loads in
// flight instead of 8, a quarter of the load/store instructions and of the index arithmetic, and a
// quarter of the blocks to schedule. The buffers start 16-byte aligned, so element 4*t is too; a
// thread whose four elements run past the end (n not a multiple of 4) takes a scalar tail instead of
// reading past the buffer. What still limits it: one shot per thread: a block reads its 4 KiB, writes
// and leaves, and the block launch overhead is only reduced, not gone. It measures above 100% of the
// copy ceiling: up to 60 MiB of its last writes are still in the write-back L2 when the timing ends
// (7% of the 805 MB), where the ceiling's 512 MiB copy has long spilled to DRAM; step 4's streaming
// stores, which send the writes on, time lower for that reason (docs/BENCHMARKS.md).
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/vector_add/*.cu --repeat 20): 0.183 ms, 4400 GB/s =
// 106.6% of the copy ceiling (4129 GB/s).
//
// kplay-task: name=vector_add reference=host view=series
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: a f32[n] in init=uniform(-1,1)
// kplay-buffer: b f32[n] in init=uniform(-1,1)
// kplay-buffer: c f32[n] out check=exact
// kplay-torch: c = a + b
// kplay-cost: bytes=12*n ceiling=copy

__global__ void vector_add_float4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    // size_t: 4*t must not overflow int for n near 2^31.
    const size_t i = 4 * (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x);
    if (i + 3 < static_cast<size_t>(n)) {
        const float4 va = *reinterpret_cast<const float4*>(a + i);
        const float4 vb = *reinterpret_cast<const float4*>(b + i);
        *reinterpret_cast<float4*>(c + i) = make_float4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w);
    } else {
        // The last thread of a size that is no multiple of 4: up to 3 elements, one at a time.
        for (size_t j = i; j < static_cast<size_t>(n); ++j) c[j] = a[j] + b[j];
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
