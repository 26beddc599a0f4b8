// kplay: kernel=softmax_registers block=256*(C<=1024)+min(1024,32*cdiv(C,1024))*(C>1024) grid=cdiv(R,8)*(C<=1024)+R*(C>1024)
//
// Step 4 of the softmax ladder: the row held in registers, loaded with float4, read from DRAM once.
// Steps 2 and 3 read x two or three times and hoped the rereads hit the cache; at 1024x32768 they do
// not. Here each thread loads its part of the row once, as up to eight 16-byte float4 loads issued back
// to back (128 bytes in flight per thread: a resident wave of warps then has several MB of loads
// outstanding, enough to cover DRAM latency), keeps those 32 floats in registers, and does everything
// else from them: the max, exp(x - m) stored back in place, the sum, and the scaled store. With the
// whole row in registers the online trick of step 3 is not needed: the max is a reduction over
// registers, not a pass over memory, so the plain max-then-sum order does one exp per element and no
// rescaling. The row's length picks the team (in the annotation a comparison is 1 or 0, so block= and
// grid= select between the two launches):
//  - C <= 1024 (the 4096x1024 size): one warp per row, 8 rows per 256-thread block, reduced with
//    shuffles alone; 4096 rows are 4096 warps, one wave on 132 SMs at 32 warps each.
//  - 1024 < C <= 32768: one block per row, one warp per 1024 columns (1024 threads at 32768), reduced
//    by shuffles within each warp and one shared-memory exchange between the warps, one barrier each.
//  - C > 32768 (no row fits in one block's registers): the block streams the row with step 3's
//    online statistics and reads it a second time to normalise.
// The float4 path needs 16-byte-aligned rows, so it is taken when C % 4 == 0; other C load the same
// slots element by element (a scalar tail for every slot), so every C is correct. The register tile is
// capped at 64 registers a thread (__launch_bounds__(1024)) so a 1024-thread block fits an SM. What still
// limits it: at 32768 columns a row fills half an SM's register file, so one row is in flight per SM,
// and its loads, its reductions and its stores take turns instead of overlapping (a cluster of blocks
// sharing a row through distributed shared memory would be the next step); at 4096x1024 the whole
// problem is only 32 MB, about 8 us at copy bandwidth, so launch and the one-wave tail weigh in.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/softmax/*.cu --repeat 20, with and without
// --image/--init): 4096x1024: 0.011 ms, 3044 GB/s = 74.0% of the copy ceiling (4116 GB/s); 1024x32768: 0.0708
// ms, 3791 GB/s = 92.1% of the copy ceiling (4116 GB/s).
//
// kplay-task: name=softmax reference=host view=matrix
// kplay-sizes: R,C default=4096x1024 cpu=64x1000 test=1x1,3x1000,33x17,2x4099,2x40000 bench=4096x1024,1024x32768
// kplay-buffer: x f32[R*C] in init=normal(0,3)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
// kplay-torch: y = torch.softmax(x.view(R, C).double(), dim=1)
// kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy

#include "kplay.cuh"

namespace {
constexpr int kSlots = 8;                     // float4 slots per thread: 32 floats of the row
constexpr int kWarpRowMax = 32 * 4 * kSlots;  // 1024: rows up to this length take one warp
                                              // (and up to 1024 * 4 * kSlots = 32768, one block)
}

__device__ __forceinline__ float neg_inf() { return -__int_as_float(0x7f800000); }

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// Block-wide reductions: each warp reduces with shuffles, lane 0 leaves the warp's value in red[],
// and after the one barrier every warp reduces red[] again, so every thread gets the result. Each call
// gets its own red[] so no second barrier is needed before it is reused.
__device__ __forceinline__ float block_max(float v, float* red) {
    v = warp_max(v);
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    return warp_max(threadIdx.x % 32 < blockDim.x / 32 ? red[threadIdx.x % 32] : neg_inf());
}

__device__ __forceinline__ float block_sum(float v, float* red) {
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
    __syncthreads();
    return warp_sum(threadIdx.x % 32 < blockDim.x / 32 ? red[threadIdx.x % 32] : 0.0f);
}

// Loads this thread's slots of the row: slot j holds columns 4(j*T + t) .. +3, so for each j the T
// threads read consecutive float4s (coalesced). Columns past C read as -inf, which the max ignores and
// exp turns into 0. The loop is unrolled, so v[] stays in registers.
__device__ __forceinline__ void load_slots(const float* xr, int C, int t, int T, bool vec, float4 (&v)[kSlots]) {
#pragma unroll
    for (int j = 0; j < kSlots; ++j) {
        const int c = 4 * (j * T + t);
        if (vec) {
            v[j] = c < C ? *reinterpret_cast<const float4*>(xr + c) : make_float4(neg_inf(), neg_inf(), neg_inf(), neg_inf());
        } else {
            v[j].x = c + 0 < C ? xr[c + 0] : neg_inf();
            v[j].y = c + 1 < C ? xr[c + 1] : neg_inf();
            v[j].z = c + 2 < C ? xr[c + 2] : neg_inf();
            v[j].w = c + 3 < C ? xr[c + 3] : neg_inf();
        }
    }
}

__device__ __forceinline__ float slots_max(const float4 (&v)[kSlots]) {
    float m = neg_inf();
#pragma unroll
    for (int j = 0; j < kSlots; ++j) m = fmaxf(m, fmaxf(fmaxf(v[j].x, v[j].y), fmaxf(v[j].z, v[j].w)));
    return m;
}

// Replaces each value by exp(x - m) and returns their sum (padding -inf becomes 0).
__device__ __forceinline__ float slots_exp_sum(float4 (&v)[kSlots], float m) {
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < kSlots; ++j) {
        v[j].x = __expf(v[j].x - m);
        v[j].y = __expf(v[j].y - m);
        v[j].z = __expf(v[j].z - m);
        v[j].w = __expf(v[j].w - m);
        s += (v[j].x + v[j].y) + (v[j].z + v[j].w);
    }
    return s;
}

__device__ __forceinline__ void store_slots(float* yr, int C, int t, int T, bool vec, const float4 (&v)[kSlots], float inv) {
#pragma unroll
    for (int j = 0; j < kSlots; ++j) {
        const int c = 4 * (j * T + t);
        if (vec) {
            if (c < C) *reinterpret_cast<float4*>(yr + c) = make_float4(v[j].x * inv, v[j].y * inv, v[j].z * inv, v[j].w * inv);
        } else {
            if (c + 0 < C) yr[c + 0] = v[j].x * inv;
            if (c + 1 < C) yr[c + 1] = v[j].y * inv;
            if (c + 2 < C) yr[c + 2] = v[j].z * inv;
            if (c + 3 < C) yr[c + 3] = v[j].w * inv;
        }
    }
}

// Step 3's online merge: (m2, s2) into (m, s); two empty parts (m = -inf) stay empty.
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    const float mn = fmaxf(m, m2);
    if (mn == neg_inf()) return;
    s = s * __expf(m - mn) + s2 * __expf(m2 - mn);
    m = mn;
}

__device__ __forceinline__ void online_add(float& m, float& s, float v) {
    if (v > m) {
        s = s * __expf(m - v) + 1.0f;
        m = v;
    } else {
        s += __expf(v - m);
    }
}

__global__ void __launch_bounds__(1024) softmax_registers(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    __shared__ float red_a[32], red_b[32];
    const bool vec = C % 4 == 0;  // rows start 16-byte aligned only then (x itself is 16-byte aligned)
    const int lane = threadIdx.x % 32;

    if (C <= kWarpRowMax) {
        // One warp per row: no shared memory, no barriers.
        const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
        if (row >= R) return;  // whole warps leave together
        const float* xr = x + static_cast<size_t>(row) * C;
        float4 v[kSlots];
        load_slots(xr, C, lane, 32, vec, v);
        const float m = warp_max(slots_max(v));
        const float s = warp_sum(slots_exp_sum(v, m));
        store_slots(y + static_cast<size_t>(row) * C, C, lane, 32, vec, v, 1.0f / s);
        return;
    }

    const int row = blockIdx.x;  // one block per row
    const int t = threadIdx.x, T = blockDim.x;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;
    if (C <= 4 * kSlots * T) {
        // The block's registers hold the row: 4 * kSlots * T >= C.
        float4 v[kSlots];
        load_slots(xr, C, t, T, vec, v);
        const float m = block_max(slots_max(v), red_a);
        const float s = block_sum(slots_exp_sum(v, m), red_b);
        store_slots(yr, C, t, T, vec, v, 1.0f / s);
        return;
    }

    // Longer rows: online statistics over float4s (or scalars), merged over the block, then a second
    // read to normalise.
    float m = neg_inf(), s = 0.0f;
    if (vec) {
        for (int c = 4 * t; c < C; c += 4 * T) {
            const float4 q = *reinterpret_cast<const float4*>(xr + c);
            online_add(m, s, q.x);
            online_add(m, s, q.y);
            online_add(m, s, q.z);
            online_add(m, s, q.w);
        }
    } else {
        for (int c = t; c < C; c += T) online_add(m, s, xr[c]);
    }
    for (int offset = 16; offset > 0; offset /= 2)
        merge(m, s, __shfl_xor_sync(0xffffffffu, m, offset), __shfl_xor_sync(0xffffffffu, s, offset));
    if (lane == 0) {
        red_a[t / 32] = m;
        red_b[t / 32] = s;
    }
    __syncthreads();
    m = lane < T / 32 ? red_a[lane] : neg_inf();
    s = lane < T / 32 ? red_b[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        merge(m, s, __shfl_xor_sync(0xffffffffu, m, offset), __shfl_xor_sync(0xffffffffu, s, offset));
    const float inv = 1.0f / s;
    if (vec) {
        for (int c = 4 * t; c < C; c += 4 * T) {
            const float4 q = *reinterpret_cast<const float4*>(xr + c);
            *reinterpret_cast<float4*>(yr + c) =
                make_float4(__expf(q.x - m) * inv, __expf(q.y - m) * inv, __expf(q.z - m) * inv, __expf(q.w - m) * inv);
        }
    } else {
        for (int c = t; c < C; c += T) yr[c] = __expf(xr[c] - m) * inv;
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
