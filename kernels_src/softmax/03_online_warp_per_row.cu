// kplay: kernel=softmax_online_warp block=256 grid=cdiv(R,8)
//
// Step 3 of the softmax ladder: online softmax (Milakov & Gimelshein, 2018), one warp per row.
// Step 2 read the row three times because the sum needs the max first. The online form gets both in
// one pass: each thread keeps a running max m and a sum s of exp(x - m) taken against that running
// max; when a new element raises the max to m', the sum so far is rescaled by exp(m - m') so it is
// measured against m' too. Two partial results (m1, s1) and (m2, s2) merge the same way:
// m = max(m1, m2), s = s1 exp(m1 - m) + s2 exp(m2 - m). So the row is read twice (statistics, then
// normalise) instead of three times. A row belongs to one warp (8 rows per 256-thread block): lane l
// reads columns l, l+32, ..., and the 32 partial (m, s) pairs are merged with register shuffles
// (__shfl_xor_sync, a butterfly: after five rounds every lane holds the row's result), with no shared
// memory and no barriers. exp is __expf (a multiply by log2 e and one ex2.approx) rather than expf
// (about ten instructions). Its error is at most 2 + 1.17|t| ulp for exp(t) (CUDA Programming Guide,
// intrinsic functions), growing as t = x - m goes negative. Rows of normal(0,3) values span about 30
// at most even at 32768 columns, so t > -32 and the error stays under 40 ulp, 5e-6 relative: inside
// the 1e-5 relative tolerance on its own, and where it is that large the outputs are below 1e-12, far
// under the abs 1e-7 part. The float sums add about 3e-6 at 32768 columns (a host simulation of this
// order of additions, with __expf modelled as ex2 of a rounded x log2 e, reached 0.4 of the tolerance
// at 1024x32768). The emulated device computes __expf as expf, so only the GPU run tests this.
// What still limits it: x is read twice, and at 1024x32768 only 1024 warps exist (8 per SM), each with
// one 4-byte load per lane per iteration, too few bytes in flight to cover DRAM latency; and the rows
// in flight overflow L2 there, so the second read comes from DRAM.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/softmax/*.cu --repeat 20, with and without
// --image/--init): 4096x1024: 0.017 ms, 1978 GB/s = 48.1% of the copy ceiling (4116 GB/s); 1024x32768: 0.3607
// ms, 744 GB/s = 18.1% of the copy ceiling (4116 GB/s).
//
// kplay-task: name=softmax reference=host view=matrix
// kplay-sizes: R,C default=4096x1024 cpu=64x1000 test=1x1,3x1000,33x17,2x4099,2x40000 bench=4096x1024,1024x32768
// kplay-buffer: x f32[R*C] in init=normal(0,3)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
// kplay-torch: y = torch.softmax(x.view(R, C).double(), dim=1)
// kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy

#include "kplay.cuh"

// Merges the partial softmax statistics (m2, s2) into (m, s). An empty part has m = -inf and s = 0;
// two empty parts stay empty (without the test, exp(-inf - -inf) would be NaN).
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    const float mn = fmaxf(m, m2);
    if (mn == -__int_as_float(0x7f800000)) return;
    s = s * __expf(m - mn) + s2 * __expf(m2 - mn);
    m = mn;
}

__global__ void softmax_online_warp(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= R) return;  // the whole warp leaves together, so the shuffles below see full warps
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: online statistics over this lane's columns. One exp per element: when x raises the
    // max, the old sum is rescaled by exp(m - x) and the new element contributes exp(0) = 1.
    float m = -__int_as_float(0x7f800000), s = 0.0f;
    for (int c = lane; c < C; c += 32) {
        const float v = xr[c];
        if (v > m) {
            s = s * __expf(m - v) + 1.0f;  // exp(-inf) = 0 for the first element
            m = v;
        } else {
            s += __expf(v - m);
        }
    }
    // Butterfly merge across the warp: after offsets 16, 8, 4, 2, 1 every lane holds the row's (m, s).
    for (int offset = 16; offset > 0; offset /= 2) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, offset);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, offset);
        merge(m, s, m2, s2);
    }

    // Pass 2: normalise. One reciprocal per row, then a multiply per element.
    const float inv = 1.0f / s;
    for (int c = lane; c < C; c += 32) yr[c] = __expf(xr[c] - m) * inv;
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
