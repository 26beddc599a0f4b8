// kplay: kernel=scan_decoupled_lookback block=256 grid=cdiv(n,8192)
//
// Step 4 of the scan ladder: a single pass with decoupled look-back (Merrill & Garland, "Single-pass
// Parallel Prefix Scan with Decoupled Look-back", 2016; PMPP chapter 11.8 shows the simpler chained
// version). Step 3 moved every element through DRAM twice (16 bytes per element against the 8 a copy
// moves) because a tile could not know the sum of the tiles before it until a second kernel had
// scanned them. Here each block scans its 8192-element tile in registers, exactly as in step 3, and
// gets the sum of everything before it from its predecessors' published state while its data is still
// in registers: x is read once and y written once, 8 bytes per element, like a copy.
//
// Each tile has one 64-bit state word in the scratch buffer, zero at the start (init=zero): a status
// in the high half (0 = nothing yet, 1 = aggregate: the tile's own sum, 2 = prefix: the sum of it and
// everything before) and the float value in the low half, written with one 64-bit store, so a reader
// never sees a status with a stale value and no fence is needed. As soon as a block has its tile's sum
// it publishes it as an aggregate, then warp 0 looks back over the 32 predecessors at once (lane l
// reads tile t-1-l): it waits until every tile up to the nearest one with a prefix has published
// something, adds the aggregates of the tiles after that prefix and the prefix itself (a warp
// reduction), and moves on by 32 tiles if the window held no prefix. Then it publishes its own prefix.
// A tile waits only on tiles nearer than the nearest finished prefix, never on the whole chain: that is
// the "decoupled" part. The tile number comes from an atomic counter (the first scratch word), not from
// blockIdx: the hardware may start blocks in any order, and a block that waited on a tile whose block
// has not started could wait forever (that block might need this one's SM). Tiles numbered in start
// order only ever wait on blocks that are already running.
//
// Inside a tile (the same as step 3): 256 threads, each with 8 float4 (16-byte loads, 128 bytes in flight
// per thread, rows of 1024 contiguous elements so every load is coalesced); a scan of each float4 in
// registers, a warp scan of the thread totals with shuffles (PMPP 11.6's three phases, with the warp as
// the middle level), and the 64 warp-row sums scanned by warp 0 through shared memory: three barriers
// per tile, one of them to share the tile number. Sizes that are not a multiple of 4 take a guarded scalar path in the last tile.
//
// What still limits it: each block's look-back waits on at least one round trip through L2 (a few
// hundred ns) between its predecessor's publish and its own, and the atomic that numbers the tile adds
// one more before the loads start; with ~3 blocks per SM in flight that is mostly hidden, and it lands at
// three quarters of copy bandwidth (below).
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/scan/*.cu --repeat 20): 0.1712 ms, 3136 GB/s =
// 76.4% of the copy ceiling (4105 GB/s).
//
// kplay-task: name=scan reference=host view=series
// kplay-sizes: n default=67108864 cpu=131072 test=1,1000,1025,4099,70000 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: y f32[n] out check=rel:2e-6+3e-9*sqrt(n)
// kplay-torch: y = torch.cumsum(x.double(), 0)
// kplay-buffer: work u32[2*cdiv(n,1024)+4] scratch init=zero
// kplay-cost: bytes=8*n ceiling=copy

#include "tile_scan.cuh"  // one tile's scan, step 3's: THREADS, ROWS, ROW, TILE, load4/store4

namespace {
constexpr unsigned long long STATUS_AGGREGATE = 1, STATUS_PREFIX = 2;
}

__device__ __forceinline__ unsigned long long pack(unsigned long long status, float value) {
    return (status << 32) | __float_as_uint(value);
}

__global__ void __launch_bounds__(THREADS)
scan_decoupled_lookback(const float* __restrict__ x, float* __restrict__ y, unsigned* work, int n) {
    // work[0]: the tile counter; work[4...]: one 64-bit state word per tile (16 bytes in, so 8-aligned).
    unsigned* tile_counter = work;
    volatile unsigned long long* state = reinterpret_cast<volatile unsigned long long*>(work + 4);

    __shared__ float part_offset[PARTS];  // warp-row sums, then their exclusive prefixes within the tile
    __shared__ float tile_offset;         // the sum of all tiles before this one
    __shared__ int tile_shared;

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) tile_shared = static_cast<int>(atomicAdd(tile_counter, 1u));
    __syncthreads();
    const int tile = tile_shared;
    const int base = tile * TILE + 4 * threadIdx.x;  // this thread's float4 in row r: base + r*ROW

    const bool full_tile = (tile + 1) * TILE <= n;
    float4 v[ROWS];
    load_tile(x, base, full_tile, n, v);
    scan_rows(v, part_offset, lane, warp);
    __syncthreads();

    // Phase 3, warp 0: scan the 64 warp-row sums, then the look-back.
    if (warp == 0) {
        const float aggregate = scan_parts(part_offset, lane);  // the tile's own sum

        float exclusive = 0.0f;  // the sum of all tiles before this one
        if (tile == 0) {
            if (lane == 0) state[0] = pack(STATUS_PREFIX, aggregate);
        } else {
            if (lane == 0) state[tile] = pack(STATUS_AGGREGATE, aggregate);  // successors may use it now
            for (int window = tile - 1;; window -= 32) {
                const int p = window - lane;  // lane 0 looks at the nearest predecessor
                unsigned long long word;
                unsigned prefixes;
                for (;;) {
                    // Before tile 0 there is nothing: a prefix of 0, so those lanes never wait.
                    word = p >= 0 ? state[p] : pack(STATUS_PREFIX, 0.0f);
                    const unsigned status = static_cast<unsigned>(word >> 32);
                    prefixes = __ballot_sync(FULL, status == STATUS_PREFIX);
                    const unsigned empty = __ballot_sync(FULL, status == 0);
                    // Only the lanes up to the nearest prefix matter; if none has one, all 32 do.
                    const unsigned needed = prefixes ? (prefixes & (0u - prefixes)) - 1 : FULL;
                    if ((empty & needed) == 0) break;
                }
                const int stop = prefixes ? __ffs(prefixes) - 1 : 31;  // the last lane that counts
                float value = lane <= stop ? __uint_as_float(static_cast<unsigned>(word)) : 0.0f;
#pragma unroll
                for (int d = 16; d > 0; d /= 2) value += __shfl_xor_sync(FULL, value, d);  // every lane gets the sum
                exclusive += value;
                if (prefixes) break;
            }
            if (lane == 0) state[tile] = pack(STATUS_PREFIX, exclusive + aggregate);
        }
        if (lane == 0) tile_offset = exclusive;
    }
    __syncthreads();

    store_tile(y, base, full_tile, n, v, part_offset, warp, tile_offset);
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
