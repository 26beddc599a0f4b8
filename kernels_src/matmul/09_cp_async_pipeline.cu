// kplay: task=matmul kernel=sgemm_cp_async args=a,b,c,M,N,K launch=2d block=256 grid=cdiv(N,128),cdiv(M,128) smem=3*(128*20+16*128)*4
//
// Step 9 of the matmul ladder: a three-stage cp.async pipeline. Steps 6-8 double-buffered through
// registers: every thread loaded the next tile into 16 registers, then stored them to shared memory
// after computing. Here the copy engine of sm_80+ moves global memory straight into shared memory
// (cp.async), so those 16 registers go back to the FMAs, the transposing scalar stores of A disappear,
// and three tiles are in flight instead of two, which hides more of each load's latency. A stays
// row-major in shared memory (cp.async copies bytes as they are); its rows are padded to 20 floats and
// each thread owns rows 8 apart, so the float2 reads of a half-warp fall in distinct banks.
// Edges: 16-byte copies inside the matrix; elsewhere 4-byte copies that zero-fill what lies outside it,
// so any M, N, K work. The shared memory (55 KiB) is dynamic, above the 48 KiB a static array may use.
//
// Measured (H200, 2026-11-29, kplay-cli bench kernels_src/matmul/0[6789]*.cu kernels_src/matmul/10*.cu
// --size 4096 --repeat 20): 3.52 ms, 39.0 TFLOP/s = 75.8% of cuBLAS fp32 (51.4 TFLOP/s), 0.90x step 8.
// A lesson in what does not pay here: the freed registers and the third stage did not make up for the
// A reads, which went from two 16-byte loads per k (transposed tile) to four 8-byte loads per k
// (row-major tile). Four stages measured the same (38.8 TFLOP/s); step 8 with only B moved by cp.async
// measured 42.9 TFLOP/s, and step 8 with a banded block order for L2 42.0: memory was not the limit.

namespace {
constexpr int BM = 128, BN = 128, BK = 16, STAGES = 3;
constexpr int A_STRIDE = BK + 4;  // floats per A row in shared memory: 16-byte aligned, banks offset per row
constexpr int A_TILE = BM * A_STRIDE, B_TILE = BK * BN;

// Copy `bytes` (4 or 16) from global to shared memory without passing through registers; reading
// `src_bytes` = 0 bytes zero-fills the destination, which is how the edges are padded.
template <int bytes>
__device__ __forceinline__ void copy_async(float* shared_dst, const float* global_src, int src_bytes) {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    if (bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Wait until at most `pending` committed groups are still in flight.
template <int pending>
__device__ __forceinline__ void wait_copies() { asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory"); }
}  // namespace

extern __shared__ __align__(16) float tiles_smem[];

__global__ void __launch_bounds__(256, 2)
sgemm_cp_async(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    float* const As = tiles_smem;                   // [STAGES][BM][A_STRIDE]
    float* const Bs = tiles_smem + STAGES * A_TILE;  // [STAGES][BK][BN]
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row = (warp / 4) * 64, warp_col = (warp % 4) * 32;  // this warp's 64x32 block
    const int lane_row = lane / 4, lane_col = (lane % 4) * 4;          // rows lane_row + 8i; columns +0, +16
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const int a_r = tid / 4, a_k = (tid % 4) * 4;    // A rows a_r and a_r + 64, k a_k..a_k+3
    const int b_k = tid / 32, b_c = (tid % 32) * 4;  // B k rows b_k and b_k + 8, columns b_c..b_c+3
    const bool aligned = K % 4 == 0 && N % 4 == 0;  // then a float4 inside the matrix is all inside it

    auto load_tile = [&](int stage, int k0) {
        float* const as = As + stage * A_TILE;
        float* const bs = Bs + stage * B_TILE;
#pragma unroll
        for (int part = 0; part < 2; ++part) {
            const int gr = block_row + a_r + 64 * part, gk = k0 + a_k;
            float* const a_dst = as + (a_r + 64 * part) * A_STRIDE + a_k;
            if (aligned) {
                const bool inside = gr < M && gk < K;
                copy_async<16>(a_dst, inside ? &A[static_cast<size_t>(gr) * K + gk] : A, inside ? 16 : 0);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const bool inside = gr < M && gk + j < K;
                    copy_async<4>(a_dst + j, inside ? &A[static_cast<size_t>(gr) * K + gk + j] : A, inside ? 4 : 0);
                }
            }
            const int bk = k0 + b_k + 8 * part, bc = block_col + b_c;
            float* const b_dst = bs + (b_k + 8 * part) * BN + b_c;
            if (aligned) {
                const bool inside = bk < K && bc < N;
                copy_async<16>(b_dst, inside ? &B[static_cast<size_t>(bk) * N + bc] : B, inside ? 16 : 0);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const bool inside = bk < K && bc + j < N;
                    copy_async<4>(b_dst + j, inside ? &B[static_cast<size_t>(bk) * N + bc + j] : B, inside ? 4 : 0);
                }
            }
        }
    };

    float acc[8][8] = {};  // rows lane_row + 8i; columns lane_col..+3 and 16+lane_col..+3
    const int tiles = (K + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles) load_tile(s, s * BK);
        commit_copies();  // an empty group keeps the count of groups per tile fixed
    }
    for (int t = 0; t < tiles; ++t) {
        wait_copies<STAGES - 2>();  // tile t has landed (for this thread's copies)...
        __syncthreads();            // ...and for everyone's; the stage computed last iteration is free
        const int next = t + STAGES - 1;
        if (next < tiles) load_tile(next % STAGES, next * BK);
        commit_copies();
        const float* const as = As + (t % STAGES) * A_TILE + (warp_row + lane_row) * A_STRIDE;
        const float* const bs = Bs + (t % STAGES) * B_TILE + warp_col + lane_col;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 2) {
            float2 a[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) a[i] = *reinterpret_cast<const float2*>(as + 8 * i * A_STRIDE + kk);
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const float4 b0 = *reinterpret_cast<const float4*>(bs + (kk + h) * BN);
                const float4 b1 = *reinterpret_cast<const float4*>(bs + (kk + h) * BN + 16);
                const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    const float ai = h == 0 ? a[i].x : a[i].y;
#pragma unroll
                    for (int j = 0; j < 8; ++j) acc[i][j] += ai * b[j];
                }
            }
        }
    }
    wait_copies<0>();  // leave no copy in flight when the block exits
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int gr = block_row + warp_row + lane_row + 8 * i;
        if (gr >= M) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int gc = block_col + warp_col + half * 16 + lane_col;
            const float* v = &acc[i][half * 4];
            if (aligned && gc + 3 < N) {
                *reinterpret_cast<float4*>(&C[static_cast<size_t>(gr) * N + gc]) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                for (int j = 0; j < 4; ++j)
                    if (gc + j < N) C[static_cast<size_t>(gr) * N + gc + j] = v[j];
            }
        }
    }
}
