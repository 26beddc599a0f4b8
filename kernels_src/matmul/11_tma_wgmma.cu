// kplay: task=matmul kernel=sgemm_tma_wgmma args=a_map,b_map,c,M,N,K launch=2d block=256 grid=cdiv(N,128),cdiv(M,256) smem=4*49152+1024 arch=sm_90a requires=K%4==0&&N%4==0 tol=16384
// kplay-tma: a_map buffer=a shape=M,K box=256,32 swizzle=128
// kplay-tma: b_map buffer=b shape=K,N box=32,32 swizzle=128
//
// Step 11 of the matmul ladder: Hopper's own road to the tensor cores, TMA and wgmma (sm_90a). Step
// 10's WMMA is the Ampere interface: every warp loads its fragments from shared memory element by
// element and issues small 16x16x8 products. Hopper adds two units that WMMA cannot reach.
//
// The TMA (Tensor Memory Accelerator) copies a whole tile from global to shared memory at the request
// of ONE thread. The matrix's extents and strides and the tile's shape live in a 128-byte descriptor
// (a CUtensorMap, built by kplay from the kplay-tma lines); the hardware generates every address,
// fills what lies outside the matrix with zeros (so irregular M, N, K need no edge code for loads) and
// swizzles the rows as it writes them: the 16-byte chunks of each 128-byte row are XORed with the row
// index mod 8, so reading down a column touches 8 different chunk positions, not one bank.
// An mbarrier says when a tile has landed: the issuing thread arrives on it and announces how many
// bytes are coming (expect_tx); the copy counts its bytes off as they arrive; the barrier's phase
// completes when both are done and the waiting threads wake. No thread polls memory, none copies.
// wgmma is an MMA issued by a warpgroup (4 warps) together: one instruction multiplies 64x8 by
// 8x256, reads its B operand straight from shared memory through a matrix descriptor and runs in the
// background; the warps fence their registers, commit the wgmmas issued as a group and wait for it.
//
// Why B comes through registers: for TF32, wgmma reads a shared-memory operand only K-major (k
// contiguous); the transpose bits are for 16-bit types. A (row-major M x K) is K-major, B (K x N) is
// not. So the kernel computes the transposed product C^T = B^T A^T: wgmma's first operand is B^T,
// which each thread loads from the B tile into 4 registers per k8 step, and its second is A^T, which
// is exactly A's tile as the TMA left it (row m holds 32 consecutive k). The accumulators then hold
// C^T: their rows are columns n of C, their columns rows m.
//
// The block computes a 128 (n) x 256 (m) tile, 32 deep per stage, through a ring of 4 stages of
// 48 KiB. Its two warpgroups own 64 n rows each (m64n256k8: 128 accumulators per thread). Which n a
// fragment row stands for is the kernel's choice, since the accumulator rows follow: it is chosen so
// that a thread's two rows (g and g+8) are adjacent n, read with one 8-byte load and written to C
// with one 8-byte store, and so that the swizzle spreads a warp's loads over all 32 banks.
// Thread 0 keeps 4 tiles in flight; after each tile every warpgroup waits for its wgmmas, all threads
// meet at __syncthreads and thread 0 refills the slot just freed. What this leaves: the tensor cores
// idle while the warpgroups wait for their own wgmmas, meet and load the next fragments (step 12).
//
// Measured (H200, 2026-12-02, `kplay-cli bench kernels_src/matmul/*.cu --size 4096 --repeat 20`): 0.441 ms,
// 311.4 TFLOP/s = 77.7% of cuBLAS TF32 (400.7 TFLOP/s) in the same run, 4.4x step 10; correct at 4096^3 and
// 999x996x1004 (max relative Frobenius error 4.7e-4). Nsight Compute: SM 65% of peak, one block per SM
// (12.5% occupancy), and the top stall is the CTA barrier (7.0 of 12.4 cycles between issues): every warp
// waits at the __syncthreads that guards a slot's refill, so the tensor cores idle while the next tile's
// copy is only being asked for. Step 12 removes that barrier.

#include "hopper.cuh"

namespace {
constexpr int BN = 128, BM = 256, BK = 32, STAGES = 4;
constexpr int A_STAGE_BYTES = BM * BK * 4;  // 32 KiB: 256 rows (m) of 128 bytes (32 k)
constexpr int B_BOX_BYTES = BK * 32 * 4;    // 4 KiB: 32 rows (k) of 128 bytes (32 n), one TMA box
constexpr int B_STAGE_BYTES = BN * BK * 4;  // 16 KiB: 4 boxes side by side along n
constexpr int STAGE_BYTES = A_STAGE_BYTES + B_STAGE_BYTES;

// The n (0..127 in the block tile) that fragment row g + 8h of warp `warp` of warpgroup `group` stands
// for. In a box of 32 n: bit 0 = h, bit 1 = g bit 0, bit 2 = g bit 2, bit 3 = warp bit 0, bit 4 = g
// bit 1. So rows g and g+8 are adjacent n (one 8-byte load), and within each half-warp (an 8-byte
// load is served 16 lanes at a time) the row's 16-byte chunk, XORed with k % 8 by the swizzle, takes
// all 8 values: the loads hit all 32 banks.
__device__ __forceinline__ int fragment_n(int group, int warp, int g, int h) {
    return 64 * group + 32 * (warp / 2) + 8 * (warp % 2) + 16 * ((g >> 1) & 1) + 4 * (g >> 2) + 2 * (g & 1) + h;
}
}  // namespace

extern __shared__ unsigned char tma_wgmma_smem[];

__global__ void __launch_bounds__(256, 1)
sgemm_tma_wgmma(const __grid_constant__ kplay_tensor_map a_map, const __grid_constant__ kplay_tensor_map b_map,
                float* __restrict__ C, int M, int N, int K) {
    using namespace hopper;
    __shared__ unsigned long long full[STAGES];  // phase completes when a stage's 48 KiB have landed
    // Dynamic shared memory is only 16-byte aligned; the 128-byte swizzle needs 1024 (smem= has room).
    unsigned char* const smem = tma_wgmma_smem + ((1024 - (smem_address(tma_wgmma_smem) & 1023)) & 1023);
    unsigned char* const a_tiles = smem;                            // [STAGES][256 m][32 k], swizzled
    unsigned char* const b_tiles = smem + STAGES * A_STAGE_BYTES;  // [STAGES][4 boxes][32 k][32 n], swizzled
    const int tid = threadIdx.x, lane = tid % 32;
    const int group = tid / 128, warp = (tid / 32) % 4;  // warpgroup, warp within it
    const int g = lane / 4, t = lane % 4;
    const int n0 = blockIdx.x * BN, m0 = blockIdx.y * BM;
    const int tiles = (K + BK - 1) / BK;

    if (tid == 0) {
        tma_prefetch_descriptor(a_map);
        tma_prefetch_descriptor(b_map);
        for (int s = 0; s < STAGES; ++s) mbarrier_init(&full[s], 1);  // one arrival: thread 0's
        fence_barrier_init();
    }
    __syncthreads();

    // Thread 0: load k-tile `tile` into its slot, A as one 256x32 box, B as four 32x32 boxes.
    auto issue = [&](int tile) {
        const int s = tile % STAGES, k0 = tile * BK;
        mbarrier_arrive_expect_tx(&full[s], STAGE_BYTES);  // out-of-bounds zeros count too
        tma_load_2d(a_tiles + s * A_STAGE_BYTES, a_map, k0, m0, &full[s]);
        for (int i = 0; i < 4; ++i) tma_load_2d(b_tiles + s * B_STAGE_BYTES + i * B_BOX_BYTES, b_map, n0 + 32 * i, k0, &full[s]);
    };
    if (tid == 0)
        for (int tile = 0; tile < STAGES && tile < tiles; ++tile) issue(tile);

    // Where this thread's fragments sit in a stage's B tile. Row k of a box is 128 bytes; the float at
    // (k, n) of a box is at k*128 + (((n/4) ^ (k%8)) * 16) + (n%4)*4. Half q = 0 holds k = 8j + t
    // (a[0], a[1]), q = 1 holds k = 8j + t + 4 (a[2], a[3]); k8 step j adds 8 rows = 1024 bytes.
    const int nb = fragment_n(group, warp, g, 0);  // even: n and n+1 are rows g and g+8
    const int box = nb / 32, chunk = (nb % 32) / 4;
    int frag_offset[2];
    for (int q = 0; q < 2; ++q) {
        const int k = t + 4 * q;
        frag_offset[q] = box * B_BOX_BYTES + k * 128 + ((chunk ^ k) << 4) + (nb % 4) * 4;
    }

    float acc[128] = {};
    for (int tile = 0; tile < tiles; ++tile) {
        const int s = tile % STAGES;
        mbarrier_wait(&full[s], (tile / STAGES) & 1);  // use tile/STAGES of slot s completes that phase
        const unsigned char* const bs = b_tiles + s * B_STAGE_BYTES;
        unsigned frag[4][4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const float2 lo = *reinterpret_cast<const float2*>(bs + frag_offset[0] + j * 1024);
            const float2 hi = *reinterpret_cast<const float2*>(bs + frag_offset[1] + j * 1024);
            frag[j][0] = to_tf32(lo.x);  // (row g,   k 8j+t)
            frag[j][1] = to_tf32(lo.y);  // (row g+8, k 8j+t)
            frag[j][2] = to_tf32(hi.x);  // (row g,   k 8j+t+4)
            frag[j][3] = to_tf32(hi.y);  // (row g+8, k 8j+t+4)
        }
        const unsigned long long desc = make_desc_kmajor_sw128(a_tiles + s * A_STAGE_BYTES);
        wgmma_fence();  // the fragments (and, the first time, the zeroed accumulators) before the wgmmas
#pragma unroll
        for (int j = 0; j < 4; ++j) wgmma_m64n256k8_tf32_rs(acc, frag[j], desc_advance(desc, 32 * j));
        wgmma_commit_group();
        wgmma_wait_group<0>();  // this warpgroup's wgmmas have read the stage...
        __syncthreads();        // ...and so have the other's: the slot may be refilled
        if (tid == 0 && tile + STAGES < tiles) issue(tile + STAGES);
    }

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
