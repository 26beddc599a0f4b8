// kplay: task=matmul kernel=sgemm_warp_specialized args=a_map,b_map,c,M,N,K launch=2d block=384 grid=cdiv(N,128),cdiv(M,256) smem=4*49152+1024 arch=sm_90a requires=K%4==0&&N%4==0 tol=16384
// kplay-tma: a_map buffer=a shape=M,K box=256,32 swizzle=128
// kplay-tma: b_map buffer=b shape=K,N box=32,32 swizzle=128
//
// Step 12 of the matmul ladder: warp specialisation. Step 11 had every warp do everything, in
// lockstep: wait for a tile, load fragments, issue the wgmmas, wait for them, meet at __syncthreads,
// and only then could thread 0 refill the slot. Each of those waits left the tensor cores idle. Here
// the block's warps split into roles that never wait for each other except through mbarriers:
// warpgroup 0 is the producer (one of its threads issues all TMA copies), warpgroups 1 and 2 are the
// consumers (each owns 64 n rows of the same 128 (n) x 256 (m) tile as step 11, m64n256k8).
//
// Two mbarriers per stage of the 4-stage ring (48 KiB each) carry the hand-offs. "full" completes
// when the producer has armed it with the stage's byte count and the TMA has delivered every byte;
// "empty" completes when all 8 consumer warps have arrived, saying they are done with the stage. The
// producer waits on empty before reusing a slot, the consumers on full before reading one. Each
// barrier is waited on by the parity of its phase: use n of a slot (from 0) completes phase n.
//
// The consumers no longer wait for their wgmmas to finish before going on: they commit each tile's
// four wgmmas as a group and wait only for the PREVIOUS tile's group (wait_group 1), so the tensor
// core always has the next tile's work queued while the warps load fragments. A stage is released
// to the producer when the wgmmas that read it have finished, one tile late.
//
// setmaxnreg moves registers to where they are needed. The block starts with 168 per thread (the
// 65536 of an SM over 384 threads, in multiples of 8). The producer keeps 40 (setmaxnreg.dec), the
// consumers take 232 (setmaxnreg.inc): 128 x 40 + 256 x 232 = 64512. ptxas allocates each branch to
// its new limit; held to 168, the consumers' 128 accumulators, two fragment sets and addresses would
// spill, and ptxas would serialise their wgmmas (it says so: "C7512 ... insufficient register
// resources").
//
// Measured (H200, 2026-12-02, same bench run as step 11): 0.352 ms, 390.7 TFLOP/s = 97.5% of cuBLAS TF32
// (400.7 TFLOP/s); correct at 4096^3 and 999x996x1004. Nsight Compute: SM 89% of peak (the tensor pipe
// busy), barrier stalls down from 7.0 to 2.0 cycles per issue. What is left: the 512 output tiles of 4096^2
// make 3.9 waves over 132 SMs, so the last wave runs 117 blocks on 132 SMs, and each block's prologue and
// epilogue (its first loads, its 128 KiB of C stores) leave the tensor cores idle. Step 13 addresses both.

#include "hopper.cuh"

namespace {
constexpr int BN = 128, BM = 256, BK = 32, STAGES = 4;
constexpr int A_STAGE_BYTES = BM * BK * 4;  // 32 KiB: 256 rows (m) of 128 bytes (32 k)
constexpr int B_BOX_BYTES = BK * 32 * 4;    // 4 KiB: 32 rows (k) of 128 bytes (32 n), one TMA box
constexpr int B_STAGE_BYTES = BN * BK * 4;  // 16 KiB: 4 boxes side by side along n
constexpr int STAGE_BYTES = A_STAGE_BYTES + B_STAGE_BYTES;
constexpr int CONSUMER_WARPS = 8;           // arrivals that complete an "empty" phase

// The n (0..127) that fragment row g + 8h of warp `warp` of consumer `consumer` stands for (step 11):
// rows g and g+8 are adjacent n, and a warp's 8-byte fragment loads hit all 32 banks.
__device__ __forceinline__ int fragment_n(int consumer, int warp, int g, int h) {
    return 64 * consumer + 32 * (warp / 2) + 8 * (warp % 2) + 16 * ((g >> 1) & 1) + 4 * (g >> 2) + 2 * (g & 1) + h;
}

// One tile's fragments of B^T (wgmma's A operand) for the 4 k8 steps, rounded to TF32 (step 11).
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

extern __shared__ unsigned char warp_specialized_smem[];

__global__ void __launch_bounds__(384, 1)
sgemm_warp_specialized(const __grid_constant__ kplay_tensor_map a_map, const __grid_constant__ kplay_tensor_map b_map,
                       float* __restrict__ C, int M, int N, int K) {
    using namespace hopper;
    __shared__ unsigned long long full[STAGES], empty[STAGES];
    unsigned char* const smem = warp_specialized_smem + ((1024 - (smem_address(warp_specialized_smem) & 1023)) & 1023);
    unsigned char* const a_tiles = smem;                            // [STAGES][256 m][32 k], swizzled
    unsigned char* const b_tiles = smem + STAGES * A_STAGE_BYTES;  // [STAGES][4 boxes][32 k][32 n], swizzled
    const int tid = threadIdx.x;
    const int group = tid / 128;  // 0: producer; 1, 2: consumers
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
    const int tiles = (K + BK - 1) / BK;

    if (tid == 0) {
        tma_prefetch_descriptor(a_map);
        tma_prefetch_descriptor(b_map);
        for (int s = 0; s < STAGES; ++s) {
            mbarrier_init(&full[s], 1);                // the producer's arrive_expect_tx
            mbarrier_init(&empty[s], CONSUMER_WARPS);  // one arrival per consumer warp
        }
        fence_barrier_init();
    }
    __syncthreads();  // the last block-wide barrier: from here on the roles meet only at mbarriers

    if (group == 0) {
        setmaxnreg_dec<40>();
        if (tid == 0) {
            for (int tile = 0; tile < tiles; ++tile) {
                const int s = tile % STAGES, k0 = tile * BK;
                if (tile >= STAGES) mbarrier_wait(&empty[s], (tile / STAGES - 1) & 1);  // its previous use released
                mbarrier_arrive_expect_tx(&full[s], STAGE_BYTES);
                tma_load_2d(a_tiles + s * A_STAGE_BYTES, a_map, k0, m0, &full[s]);
                for (int i = 0; i < 4; ++i)
                    tma_load_2d(b_tiles + s * B_STAGE_BYTES + i * B_BOX_BYTES, b_map, n0 + 32 * i, k0, &full[s]);
            }
        }
        return;  // the other 127 producer threads have nothing to do
    }

    setmaxnreg_inc<232>();
    const int consumer = group - 1, warp = (tid / 32) % 4, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int nb = fragment_n(consumer, warp, g, 0);
    const int box = nb / 32, chunk = (nb % 32) / 4;
    int frag_offset[2];  // k = t (a[0], a[1]) and k = t + 4 (a[2], a[3]) of k8 step 0; see step 11
    for (int q = 0; q < 2; ++q) {
        const int k = t + 4 * q;
        frag_offset[q] = box * B_BOX_BYTES + k * 128 + ((chunk ^ k) << 4) + (nb % 4) * 4;
    }

    // A wgmma reads its register operand while it runs, so the fragments of a tile must stay untouched
    // until that tile's group has been waited for. Two sets alternate: tile t loads into one while the
    // wgmmas of tile t-1, reading the other, may still be running.
    float acc[128] = {};
    unsigned frag_even[4][4], frag_odd[4][4];
    auto consume = [&](int tile, unsigned (&frag)[4][4]) {
        const int s = tile % STAGES;
        mbarrier_wait(&full[s], (tile / STAGES) & 1);
        load_fragments(frag, b_tiles + s * B_STAGE_BYTES, frag_offset);
        const unsigned long long desc = make_desc_kmajor_sw128(a_tiles + s * A_STAGE_BYTES);
        wgmma_fence();
#pragma unroll
        for (int j = 0; j < 4; ++j) wgmma_m64n256k8_tf32_rs(acc, frag[j], desc_advance(desc, 32 * j));
        wgmma_commit_group();
        wgmma_wait_group<1>();  // the previous tile's wgmmas are done: release its stage
        if (tile > 0 && lane == 0) mbarrier_arrive(&empty[(tile - 1) % STAGES]);
    };
    int tile = 0;
    for (; tile + 1 < tiles; tile += 2) {
        consume(tile, frag_even);
        consume(tile + 1, frag_odd);
    }
    if (tile < tiles) consume(tile, frag_even);
    wgmma_wait_group<0>();  // (the last stage is never waited for again: no release needed)

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
