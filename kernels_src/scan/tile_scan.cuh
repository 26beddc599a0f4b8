// tile_scan.cuh: the scan of one 8192-element tile that steps 3 and 4 of the scan ladder share. A
// block of 256 threads loads 8 float4 per thread (every load issued before any is used), scans each
// float4 in registers, each row's 32 thread totals in the warp by shuffles, and the tile's 64 warp-row
// sums in warp 0 (PMPP 11.6's three phases, with the warp as the middle level). What a step does with
// the tile's total in between (write it for a later launch, or look back at its predecessors) is its own.
#pragma once

namespace {
constexpr int THREADS = 256;          // the block: block=256 in the steps' annotations
constexpr int WARPS = THREADS / 32;   // 8
constexpr int ROWS = 8;               // float4 per thread
constexpr int ROW = 4 * THREADS;      // 1024 contiguous elements per row
constexpr int TILE = ROWS * ROW;      // 8192 elements per block: grid=cdiv(n,8192)
constexpr int PARTS = ROWS * WARPS;   // 64 warp-row sums per tile, in element order (row, then warp)
constexpr int PER_LANE = PARTS / 32;  // 2 of them per lane of warp 0
constexpr unsigned FULL = 0xffffffffu;
}

// Four consecutive elements starting at i (a multiple of 4, so the float4 is 16-byte aligned); zeros
// past the end.
__device__ __forceinline__ float4 load4(const float* p, int i, int n) {
    if (i + 3 < n) return *reinterpret_cast<const float4*>(p + i);
    return make_float4(i < n ? p[i] : 0.0f, i + 1 < n ? p[i + 1] : 0.0f, i + 2 < n ? p[i + 2] : 0.0f, 0.0f);
}

__device__ __forceinline__ void store4(float* p, int i, int n, float4 v) {
    if (i + 3 < n) {
        *reinterpret_cast<float4*>(p + i) = v;
    } else {
        if (i < n) p[i] = v.x;
        if (i + 1 < n) p[i + 1] = v.y;
        if (i + 2 < n) p[i + 2] = v.z;
    }
}

// The tile's elements for this thread: v[r] is its float4 of row r (base + r*ROW). A tile inside the
// array (all but possibly the last) takes the unguarded path, so no branch sits between the loads.
__device__ __forceinline__ void load_tile(const float* __restrict__ x, int base, bool full_tile, int n, float4 (&v)[ROWS]) {
    if (full_tile) {
#pragma unroll
        for (int r = 0; r < ROWS; ++r) v[r] = *reinterpret_cast<const float4*>(x + base + r * ROW);
    } else {
#pragma unroll
        for (int r = 0; r < ROWS; ++r) v[r] = load4(x, base + r * ROW, n);
    }
}

// Phases 1 and 2: each float4 becomes its own inclusive scan, then each row's 32 thread totals are
// scanned in the warp (Kogge-Stone by shuffles: 5 steps, no shared memory, no barrier; the 8 rows are
// independent, which hides latency). v then holds the scan within the warp's row segment, and
// part_offset[r*WARPS + warp] that segment's sum. The caller synchronises before phase 3.
__device__ __forceinline__ void scan_rows(float4 (&v)[ROWS], float* part_offset, int lane, int warp) {
    float sum[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        v[r].y += v[r].x;
        v[r].z += v[r].y;
        v[r].w += v[r].z;
        sum[r] = v[r].w;
    }
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const float left = __shfl_up_sync(FULL, sum[r], d);
            if (lane >= d) sum[r] += left;
        }
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        float before = __shfl_up_sync(FULL, sum[r], 1);  // exclusive: the threads before this one
        if (lane == 0) before = 0.0f;
        v[r].x += before;
        v[r].y += before;
        v[r].z += before;
        v[r].w += before;
        if (lane == 31) part_offset[r * WARPS + warp] = sum[r];
    }
}

// Phase 3, by warp 0 alone: the 64 warp-row sums (2 per lane) become their exclusive prefixes within
// the tile. Returns the tile's total in every lane.
__device__ __forceinline__ float scan_parts(float* part_offset, int lane) {
    float mine[PER_LANE];
    float lane_sum = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        mine[k] = part_offset[lane * PER_LANE + k];
        lane_sum += mine[k];
    }
    float inclusive = lane_sum;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        const float left = __shfl_up_sync(FULL, inclusive, d);
        if (lane >= d) inclusive += left;
    }
    float before = __shfl_up_sync(FULL, inclusive, 1);
    if (lane == 0) before = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        part_offset[lane * PER_LANE + k] = before;  // exclusive prefix of this warp-row in the tile
        before += mine[k];
    }
    return __shfl_sync(FULL, inclusive, 31);
}

// The tile's results: each element plus its warp-row's prefix within the tile plus `offset` (the sum
// of whatever comes before the tile), stored as they were loaded.
__device__ __forceinline__ void store_tile(float* __restrict__ y, int base, bool full_tile, int n, const float4 (&v)[ROWS],
                                           const float* part_offset, int warp, float offset) {
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const float add = offset + part_offset[r * WARPS + warp];
        const float4 out = make_float4(v[r].x + add, v[r].y + add, v[r].z + add, v[r].w + add);
        if (full_tile)
            *reinterpret_cast<float4*>(y + base + r * ROW) = out;
        else
            store4(y, base + r * ROW, n, out);
    }
}
