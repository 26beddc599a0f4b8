// kplay: kernel=count_per_expert launch=1d block=128 requires=block_x==128
//
// Race 6: lanes of a warp exchange through shared memory after a warp collective, with no __syncwarp().
// A mixture-of-experts router counts, per warp, how many of its tokens go to each expert: the lanes
// number their tokens with a __shfl_up_sync scan and count them with __reduce_add_sync, each lane writes
// its expert into the warp's slots in shared memory at its number, and then lane e reads every slot to
// count expert e. The collectives exchange registers only: in CUDA's memory model a shuffle,
// a vote or a __reduce_*_sync does not order shared-memory accesses between lanes, so a lane may read a
// slot before its neighbour's write reached it. The emulated device reports a warp-local race between the
// write and the read, at every thread order. compute-sanitizer's racecheck may miss it: it watches
// barriers, and a warp that happens to run in step shows no hazard.
// The fix: __syncwarp() between the writes and the reads (kernels_src/races/07_warp_exchange_with_syncwarp.cu).
//
// kplay-task: name=expert_counts reference=host view=series
// kplay-sizes: n,E default=65536x8 cpu=4096x8 test=1x8,33x4,1000x8
// kplay-buffer: expert i32[n] in init=randint(0,E-1)
// kplay-buffer: counts i32[cdiv(n,32)*E] out init=zero check=exact
// kplay-cost: bytes=4*n+4*cdiv(n,32)*E ceiling=copy
#define WARPS 4

__global__ void count_per_expert(const int* __restrict__ expert, int* __restrict__ counts, int n, int E) {
    __shared__ int slot[WARPS][32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int mine = i < n ? expert[i] : -1;
    // The warp's tokens packed to the front of its slots: an inclusive scan of "has a token" over the lanes.
    int position = mine >= 0;
    for (int d = 1; d < 32; d *= 2) {
        const int below = __shfl_up_sync(0xffffffffu, position, d);
        if (lane >= d) position += below;
    }
    const int tokens = __reduce_add_sync(0xffffffffu, mine >= 0 ? 1u : 0u);
    if (mine >= 0) slot[warp][position - 1] = mine;
    if (lane < E && i - lane < n) {  // lane e counts expert e over the warp's tokens
        int count = 0;
        for (int k = 0; k < tokens; ++k) count += slot[warp][k] == lane;
        counts[(i / 32) * E + lane] = count;
    }
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* expert, int* counts, int n, int E) {
    const int warps = (n + 31) / 32;
    for (int w = 0; w < warps; ++w)
        for (int e = 0; e < E; ++e) {
            int count = 0;
            for (int l = 0; l < 32 && w * 32 + l < n; ++l) count += expert[w * 32 + l] == e;
            counts[w * E + e] = count;
        }
}
#endif
