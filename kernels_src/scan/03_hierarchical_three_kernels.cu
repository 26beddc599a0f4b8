// kplay: kernel=scan_tiles block=256 grid=cdiv(n,8192)
//
// Step 3 of the scan ladder: hierarchical scan over the whole GPU (PMPP chapter 11.7), three kernels in
// one run. (1) Every block scans its own 8192-element tile into y and writes the tile's total to a
// scratch array; (2) one block scans those totals in place (8192 of them at n = 64M), looping in chunks
// of 4096 with a carry as steps 1-2 did; (3) every block adds the sum of the tiles before it to its
// tile of y. The kernel boundaries are the grid-wide barriers a scan needs: kernel 2 starts only when
// every tile total exists, kernel 3 only when all are scanned.
//
// The tile scan is new too, and it is step 4's: 256 threads, each holding 8 float4 (16-byte loads,
// 128 bytes in flight per thread; row r of the tile is 1024 contiguous elements, so every load is
// coalesced). Each float4 is scanned in registers, the 32 thread totals of each row with warp shuffles
// (Kogge-Stone in 5 steps, no shared memory, no barrier), and the 64 warp-row sums of the tile by warp 0
// through shared memory: two barriers per tile instead of step 2's 23 per 2048 elements, and a few
// additions per element, all in registers. (PMPP 11.6's three-phase scan, with registers and the warp as the lower levels.)
//
// What it fixes: all 132 SMs work, with enough loads in flight to keep HBM busy. What still limits it:
// y makes two round trips through DRAM, written by kernel 1 and read and written again by kernel 3, so
// each element costs 16 bytes against a copy's 8: at best half of copy bandwidth (kernel 3 walks the
// tiles last-first, so it starts on the part of y that kernel 1 wrote last and L2 may still hold, which
// wins back a little). Reduce-then-scan (kernel 1 only sums, kernel 3 reads x again and scans with the
// offset) would cost 12 bytes. Step 4 needs only 8, in one pass.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/scan/*.cu --repeat 20): 0.2645 ms, 2029 GB/s =
// 49.4% of the copy ceiling (4105 GB/s).
//
// kplay-task: name=scan reference=host view=series
// kplay-sizes: n default=67108864 cpu=131072 test=1,1000,1025,4099,70000 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: y f32[n] out check=rel:2e-6+3e-9*sqrt(n)
// kplay-torch: y = torch.cumsum(x.double(), 0)
// kplay-buffer: work u32[2*cdiv(n,1024)+4] scratch init=zero
// kplay-cost: bytes=8*n ceiling=copy
// kplay-launch: scan_tile_sums block=1024 grid=1
// kplay-launch: add_tile_offsets block=256 grid=cdiv(n,8192)

#include "tile_scan.cuh"  // one tile's scan, shared with step 4: THREADS, ROWS, ROW, TILE, load4/store4

namespace {
constexpr int SUM_THREADS = 1024;           // block=1024 for kernel 2
constexpr int SUM_WARPS = SUM_THREADS / 32;
constexpr int SUM_CHUNK = 4 * SUM_THREADS;  // tile totals per pass of kernel 2
}

// Kernel 1: scan each tile on its own; tile b's total goes to work[b] (as a float).
__global__ void __launch_bounds__(THREADS)
scan_tiles(const float* __restrict__ x, float* __restrict__ y, unsigned* work, int n) {
    float* tile_sums = reinterpret_cast<float*>(work);
    __shared__ float part_offset[PARTS];  // warp-row sums, then their exclusive prefixes within the tile

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int tile = blockIdx.x;
    const int base = tile * TILE + 4 * threadIdx.x;  // this thread's float4 in row r: base + r*ROW
    const bool full_tile = (tile + 1) * TILE <= n;
    float4 v[ROWS];
    load_tile(x, base, full_tile, n, v);
    scan_rows(v, part_offset, lane, warp);
    __syncthreads();
    if (warp == 0) {
        const float total = scan_parts(part_offset, lane);
        if (lane == 0) tile_sums[tile] = total;  // the tile's total, for kernel 2
    }
    __syncthreads();
    store_tile(y, base, full_tile, n, v, part_offset, warp, 0.0f);
}

// Kernel 2, one block: inclusive scan of the cdiv(n, TILE) tile totals in place, 4096 per pass with a
// carry (the same three levels: a float4 per thread, shuffles in the warp, warp 0 over the 32 warps).
__global__ void __launch_bounds__(SUM_THREADS) scan_tile_sums(unsigned* work, int n) {
    float* tile_sums = reinterpret_cast<float*>(work);
    const int count = (n + TILE - 1) / TILE;
    __shared__ float warp_offset[SUM_WARPS];
    __shared__ float chunk_total;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float carry = 0.0f;  // the sum of the tile totals in the passes before; the same in every thread
    for (int chunk = 0; chunk < count; chunk += SUM_CHUNK) {
        const int i = chunk + 4 * threadIdx.x;
        float4 v = load4(tile_sums, i, count);
        v.y += v.x;
        v.z += v.y;
        v.w += v.z;
        float inclusive = v.w;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const float left = __shfl_up_sync(FULL, inclusive, d);
            if (lane >= d) inclusive += left;
        }
        float before = __shfl_up_sync(FULL, inclusive, 1);
        if (lane == 0) before = 0.0f;
        if (lane == 31) warp_offset[warp] = inclusive;
        __syncthreads();
        if (warp == 0) {
            const float warp_sum = warp_offset[lane];
            float scanned = warp_sum;
#pragma unroll
            for (int d = 1; d < 32; d *= 2) {
                const float left = __shfl_up_sync(FULL, scanned, d);
                if (lane >= d) scanned += left;
            }
            float warps_before = __shfl_up_sync(FULL, scanned, 1);
            if (lane == 0) warps_before = 0.0f;
            warp_offset[lane] = warps_before;
            if (lane == 31) chunk_total = scanned;
        }
        __syncthreads();
        const float add = carry + warp_offset[warp] + before;
        store4(tile_sums, i, count, make_float4(v.x + add, v.y + add, v.z + add, v.w + add));
        carry += chunk_total;
        __syncthreads();  // all have read warp_offset and chunk_total before the next pass writes them
    }
}

// Kernel 3: tile b > 0 adds the inclusive sum of tiles 0..b-1. Blocks take the tiles last-first: the
// end of y is what kernel 1 wrote last, the part most likely to still be in L2.
__global__ void __launch_bounds__(THREADS) add_tile_offsets(float* __restrict__ y, const unsigned* work, int n) {
    const float* tile_sums = reinterpret_cast<const float*>(work);
    const int tile = gridDim.x - 1 - blockIdx.x;
    if (tile == 0) return;  // nothing comes before the first tile
    const float add = tile_sums[tile - 1];
    const int base = tile * TILE + 4 * threadIdx.x;
    if ((tile + 1) * TILE <= n) {
        float4 v[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) v[r] = *reinterpret_cast<const float4*>(y + base + r * ROW);
#pragma unroll
        for (int r = 0; r < ROWS; ++r)
            *reinterpret_cast<float4*>(y + base + r * ROW) = make_float4(v[r].x + add, v[r].y + add, v[r].z + add, v[r].w + add);
    } else {
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const float4 v = load4(y, base + r * ROW, n);
            store4(y, base + r * ROW, n, make_float4(v.x + add, v.y + add, v.z + add, v.w + add));
        }
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
