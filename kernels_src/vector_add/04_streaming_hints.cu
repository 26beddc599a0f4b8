// kplay: kernel=vector_add_streaming launch=1d block=256 grid=sms*8
//
// Step 4 of the vector_add ladder: step 3 with streaming cache hints. Every byte is touched exactly
// once, so there is nothing for the caches to keep: __ldcs and __stcs (ld.global.cs / st.global.cs,
// "cache streaming, likely accessed once") mark the lines evict-first, so the 60 MiB L2 does not fill
// with c's lines that wait to be written back while a and b's new lines need room. The loop is also
// unrolled by two, so each thread issues four 16-byte loads (64 bytes) before its first add. This is
// the last few percent: step 3 should already be near the copy ceiling, and whether the hints help
// depends on the L2's replacement policy; the measured number decides whether they stay.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/vector_add/*.cu --repeat 20): 0.2052 ms, 3924 GB/s
// = 95.0% of the copy ceiling (4129 GB/s).
//
// kplay-task: name=vector_add reference=host view=series
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: a f32[n] in init=uniform(-1,1)
// kplay-buffer: b f32[n] in init=uniform(-1,1)
// kplay-buffer: c f32[n] out check=exact
// kplay-torch: c = a + b
// kplay-cost: bytes=12*n ceiling=copy

__global__ void vector_add_streaming(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t vecs = static_cast<size_t>(n) / 4;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* c4 = reinterpret_cast<float4*>(c);
    size_t v = first;
    // Two float4s per array per iteration, all four loads issued before any store.
    for (; v + stride < vecs; v += 2 * stride) {
        const float4 a0 = __ldcs(a4 + v), b0 = __ldcs(b4 + v);
        const float4 a1 = __ldcs(a4 + v + stride), b1 = __ldcs(b4 + v + stride);
        __stcs(c4 + v, make_float4(a0.x + b0.x, a0.y + b0.y, a0.z + b0.z, a0.w + b0.w));
        __stcs(c4 + v + stride, make_float4(a1.x + b1.x, a1.y + b1.y, a1.z + b1.z, a1.w + b1.w));
    }
    if (v < vecs) {  // the one float4 left when this thread's count is odd
        const float4 a0 = __ldcs(a4 + v), b0 = __ldcs(b4 + v);
        __stcs(c4 + v, make_float4(a0.x + b0.x, a0.y + b0.y, a0.z + b0.z, a0.w + b0.w));
    }
    const size_t j = 4 * vecs + first;  // the 0 to 3 elements past the last float4
    if (j < static_cast<size_t>(n)) c[j] = a[j] + b[j];
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
