// kplay: task=matmul kernel=sgemm_persistent args=a_map,b_map,c,M,N,K launch=1d block=384 grid=sms smem=4*49152+1024 arch=sm_90a requires=K%4==0&&N%4==0 tol=16384
// kplay-tma: a_map buffer=a shape=M,K box=256,32 swizzle=128
// kplay-tma: b_map buffer=b shape=K,N box=32,32 swizzle=128
//
// Step 13 of the matmul ladder: step 12 made persistent. Step 12 launches one block per output tile
// (512 at 4096^3), and each block starts cold: it initialises barriers, fills its 4-stage pipeline
// while the tensor cores wait, and at the end stores its 128 KiB of C while they wait again. Here the
// grid is one block per SM (grid=sms), and each block loops over output tiles: tile blockIdx.x, then
// blockIdx.x + gridDim.x, and so on. The producer does not stop at a tile's end: its stage counter
// runs on across tiles, so it loads the first k-tiles of the next output tile while the consumers
// are still computing, and then storing, the current one. The pipeline is filled once per block.
//
// The counter `it` numbers every k-tile a block handles, over all its output tiles; stage it % 4 and
// phase it / 4 follow from it, for producer and consumers alike, exactly as in step 12. A consumer
// releases the last stage of a tile after its final wait, before the epilogue, so the producer can
// refill it while C is written.
//
// The order of the tiles is chosen for the L2 cache. Blocks that run at the same time take
// consecutive tile numbers; numbered row after row, 132 of them would span 4 rows of 256 m and all
// 32 columns of 128 n at 4096^3, and read 4 A panels and 32 B panels together. Numbered down bands of
// 8 tile rows instead (all 8 rows of a column, then the next column), they cover about 8 x 16 tiles:
// 8 A panels and 17 B panels, each k-slice read by 8 to 16 blocks within a short time, mostly from
// L2. (The next step would be thread-block clusters multicasting the shared slices over the SMs of a
// cluster; this rung leaves that out.)
//
// Measured (H200, 2026-12-02, same bench run as step 11): 0.350 ms, 393.1 TFLOP/s = 98.1% of cuBLAS TF32
// (400.7 TFLOP/s); correct at 4096^3 and 999x996x1004. Nsight Compute: SM 91% of peak, L2 hit rate 81%
// (step 12: 71%) from the banded tile order. The gain over step 12 is small at 4096^3 (0.6%) because the
// epilogue still stalls the consumers: overlapping a tile's C stores with the next tile's MMAs (a second
// accumulator set, or stores through shared memory by TMA) is the next step, with 2-block clusters that
// multicast the A tile to halve its L2 traffic.

#include "hopper.cuh"

namespace {
constexpr int BN = 128, BM = 256, BK = 32, STAGES = 4;
constexpr int A_STAGE_BYTES = BM * BK * 4;  // 32 KiB: 256 rows (m) of 128 bytes (32 k)
constexpr int B_BOX_BYTES = BK * 32 * 4;    // 4 KiB: 32 rows (k) of 128 bytes (32 n), one TMA box
constexpr int B_STAGE_BYTES = BN * BK * 4;  // 16 KiB: 4 boxes side by side along n
constexpr int STAGE_BYTES = A_STAGE_BYTES + B_STAGE_BYTES;
constexpr int CONSUMER_WARPS = 8;
constexpr int GROUP_M = 8;                  // tile rows (of 256 m) per band of the tile order

// Tile number -> (tile row tm along m, tile column tn along n): down a band of GROUP_M tile rows,
// column after column; the last band may have fewer rows.
__device__ __forceinline__ void tile_coords(int tile, int tiles_m, int tiles_n, int& tm, int& tn) {
    const int per_band = GROUP_M * tiles_n;
    const int band = tile / per_band, first = band * GROUP_M;
    const int rows = min(GROUP_M, tiles_m - first);
    const int idx = tile % per_band;
    tm = first + idx % rows;
    tn = idx / rows;
}

// The n (0..127) that fragment row g + 8h of warp `warp` of consumer `consumer` stands for (step 11).
__device__ __forceinline__ int fragment_n(int consumer, int warp, int g, int h) {
    return 64 * consumer + 32 * (warp / 2) + 8 * (warp % 2) + 16 * ((g >> 1) & 1) + 4 * (g >> 2) + 2 * (g & 1) + h;
}

// One k-tile's fragments of B^T (wgmma's A operand) for the 4 k8 steps, rounded to TF32 (step 11).
__device__ __forceinline__ void load_fragments(unsigned (&frag)[4][4], const unsigned char* bs, const int (&offset)[2]) {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float2 lo = *reinterpret_cast<const float2*>(bs + offset[0] + j * 1024);
        const float2 hi = *reinterpret_cast<const float2*>(bs + offset[1] + j * 1024);
        frag[j][0] = hopper::to_tf32(lo.x);
        frag[j][1] = hopper::to_tf32(lo.y);
        frag[j][2] = hopper::to_tf32(hi.x);
        frag[j][3] = hopper::to_tf32(hi.y);
    }
}
}  // namespace

extern __shared__ unsigned char persistent_smem[];

__global__ void __launch_bounds__(384, 1)
sgemm_persistent(const __grid_constant__ kplay_tensor_map a_map, const __grid_constant__ kplay_tensor_map b_map,
                 float* __restrict__ C, int M, int N, int K) {
    using namespace hopper;
    __shared__ unsigned long long full[STAGES], empty[STAGES];
    unsigned char* const smem = persistent_smem + ((1024 - (smem_address(persistent_smem) & 1023)) & 1023);
    unsigned char* const a_tiles = smem;                            // [STAGES][256 m][32 k], swizzled
    unsigned char* const b_tiles = smem + STAGES * A_STAGE_BYTES;  // [STAGES][4 boxes][32 k][32 n], swizzled
    const int tid = threadIdx.x;
    const int group = tid / 128;  // 0: producer; 1, 2: consumers
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tiles = tiles_m * tiles_n;
    const int k_tiles = (K + BK - 1) / BK;

    if (tid == 0) {
        tma_prefetch_descriptor(a_map);
        tma_prefetch_descriptor(b_map);
        for (int s = 0; s < STAGES; ++s) {
            mbarrier_init(&full[s], 1);
            mbarrier_init(&empty[s], CONSUMER_WARPS);
        }
        fence_barrier_init();
    }
    __syncthreads();

    if (group == 0) {
        setmaxnreg_dec<40>();
        if (tid == 0) {
            int it = 0;  // k-tiles loaded so far by this block, over all its output tiles
            for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
                int tm, tn;
                tile_coords(tile, tiles_m, tiles_n, tm, tn);
                const int m0 = tm * BM, n0 = tn * BN;
                for (int kt = 0; kt < k_tiles; ++kt, ++it) {
                    const int s = it % STAGES, k0 = kt * BK;
                    if (it >= STAGES) mbarrier_wait(&empty[s], (it / STAGES - 1) & 1);
                    mbarrier_arrive_expect_tx(&full[s], STAGE_BYTES);
                    tma_load_2d(a_tiles + s * A_STAGE_BYTES, a_map, k0, m0, &full[s]);
                    for (int i = 0; i < 4; ++i)
                        tma_load_2d(b_tiles + s * B_STAGE_BYTES + i * B_BOX_BYTES, b_map, n0 + 32 * i, k0, &full[s]);
                }
            }
        }
        return;
    }

    setmaxnreg_inc<232>();
    const int consumer = group - 1, warp = (tid / 32) % 4, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int nb = fragment_n(consumer, warp, g, 0);
    const int box = nb / 32, chunk = (nb % 32) / 4;
    int frag_offset[2];
    for (int q = 0; q < 2; ++q) {
        const int k = t + 4 * q;
        frag_offset[q] = box * B_BOX_BYTES + k * 128 + ((chunk ^ k) << 4) + (nb % 4) * 4;
    }

    float acc[128];
    unsigned frag_even[4][4], frag_odd[4][4];  // alternate between k-tiles (step 12)
    int it = 0;                                // k-tiles consumed so far, counted as the producer does
    auto consume = [&](int kt, unsigned (&frag)[4][4]) {
        const int s = it % STAGES;
        mbarrier_wait(&full[s], (it / STAGES) & 1);
        load_fragments(frag, b_tiles + s * B_STAGE_BYTES, frag_offset);
        const unsigned long long desc = make_desc_kmajor_sw128(a_tiles + s * A_STAGE_BYTES);
        wgmma_fence();
#pragma unroll
        for (int j = 0; j < 4; ++j) wgmma_m64n256k8_tf32_rs(acc, frag[j], desc_advance(desc, 32 * j));
        wgmma_commit_group();
        wgmma_wait_group<1>();
        if (kt > 0 && lane == 0) mbarrier_arrive(&empty[(it - 1) % STAGES]);
        ++it;
    };

    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        int tm, tn;
        tile_coords(tile, tiles_m, tiles_n, tm, tn);
        const int m0 = tm * BM, n0 = tn * BN;
#pragma unroll
        for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
        int kt = 0;
        for (; kt + 1 < k_tiles; kt += 2) {
            consume(kt, frag_even);
            consume(kt + 1, frag_odd);
        }
        if (kt < k_tiles) consume(kt, frag_even);
        wgmma_wait_group<0>();  // every wgmma of the tile is done: the accumulators are final...
        if (k_tiles > 0 && lane == 0) mbarrier_arrive(&empty[(it - 1) % STAGES]);  // ...and its last stage free

        // acc[4j + 2h + e] is C^T(row g + 8h, col 8j + 2t + e): C[m0 + 8j + 2t + e][n0 + nb + h].
        const int n = n0 + nb;
        if (n < N) {  // N is a multiple of 4 and n is even, so n + 1 < N too
#pragma unroll
            for (int j = 0; j < 32; ++j) {
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int m = m0 + 8 * j + 2 * t + e;
                    if (m < M) *reinterpret_cast<float2*>(&C[static_cast<size_t>(m) * N + n]) = make_float2(acc[4 * j + e], acc[4 * j + 2 + e]);
                }
            }
        }
    }
}
