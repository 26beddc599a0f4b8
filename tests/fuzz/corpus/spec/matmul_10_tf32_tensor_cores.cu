matmul
// kplay: task=matmul kernel=sgemm_tf32_wmma args=a,b,c,M,N,K launch=2d block=256 grid=cdiv(N,128),cdiv(M,128) smem=3*(128*36+32*132)*4 tol=16384
//
// Step 10 of the matmul ladder (beyond fp32): tensor cores through WMMA, in TF32. Every step so far ran
// on the fp32 FMA units; the tensor cores multiply 16x8 by 8x16 tiles in one warp-wide instruction, many
// times faster, if the inputs are rounded to TF32 (a 10-bit mantissa, fp32's exponent). Accumulation
// stays fp32. The rounding makes each product about 2^-11 relative off instead of 2^-24, so the
// annotation raises the tolerance (tol is in units of fp32's rounding): this is a different contract,
// the one cuBLAS's TF32 mode offers, not a faster fp32.
//
// The rest is step 9: 128x128 block tiles, 32 deep, moved by cp.async through a three-stage pipeline;
// each of the 8 warps owns 64x32 of the tile as 4x2 accumulator fragments of 16x16. Rows of both
// shared tiles are padded by 4 floats (16-byte aligned, banks offset per row). The accumulators go out
// through shared memory so that the edges of any M, N, K can be written with plain guarded stores.
//
// Measured (H200, 2026-11-29, same bench run as step 9): 1.95 ms, 70.5 TFLOP/s: 1.6x cuBLAS fp32 but only
// 17.7% of cuBLAS TF32 (399 TFLOP/s); max relative Frobenius error 2.9e-4 (fp32 steps: 5.7e-7). WMMA loads
// each fragment element from shared memory one by one and converts it, and Hopper's fastest tensor-core
// path (wgmma, fed from shared memory by the TMA) is not reachable through WMMA; held to one block per SM
// it measured 62.6 TFLOP/s.

#include <mma.h>

namespace {
constexpr int BM = 128, BN = 128, BK = 32, STAGES = 3;
constexpr int A_STRIDE = BK + 4, B_STRIDE = BN + 4;  // floats per shared row
constexpr int A_TILE = BM * A_STRIDE, B_TILE = BK * B_STRIDE;
constexpr int OUT_STRIDE = 32 + 4;                   // a warp's 64x32 block staged for the edge-safe store

template <int bytes>
__device__ __forceinline__ void copy_async(float* shared_dst, const float* global_src, int src_bytes) {
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    if (bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int pending>
__device__ __forceinline__ void wait_copies() { asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory"); }

// Copy a rows x cols tile (cols a multiple of 4) at (row0, col0) of a ld-wide matrix into shared memory
// with the given row stride, zero-filling what lies outside rows x limit_cols.
template <int rows, int cols>
__device__ __forceinline__ void copy_tile(float* dst, int stride, const float* src, int ld, int row0, int col0,
                                          int limit_rows, int limit_cols, bool aligned) {
    constexpr int vectors = rows * cols / 4;  // a multiple of the 256 threads
#pragma unroll
    for (int i = 0; i < vectors / 256; ++i) {
        const int v = threadIdx.x + 256 * i;
        const int r = v / (cols / 4), c = (v % (cols / 4)) * 4;
        const int gr = row0 + r, gc = col0 + c;
        float* const d = dst + r * stride + c;
        if (aligned) {
            const bool inside = gr < limit_rows && gc < limit_cols;
            copy_async<16>(d, inside ? &src[static_cast<size_t>(gr) * ld + gc] : src, inside ? 16 : 0);
        } else {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const bool inside = gr < limit_rows && gc + j < limit_cols;
                copy_async<4>(d + j, inside ? &src[static_cast<size_t>(gr) * ld + gc + j] : src, inside ? 4 : 0);
            }
        }
    }
}
}  // namespace

extern __shared__ __align__(128) float tf32_smem[];

__global__ void __launch_bounds__(256, 2)
sgemm_tf32_wmma(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    using namespace nvcuda;
    float* const As = tf32_smem;                   // [STAGES][BM][A_STRIDE]
    float* const Bs = tf32_smem + STAGES * A_TILE;  // [STAGES][BK][B_STRIDE]
    const int warp = threadIdx.x / 32;
    const int warp_row = (warp / 4) * 64, warp_col = (warp % 4) * 32;
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    const bool aligned = K % 4 == 0 && N % 4 == 0;

    auto load_tile = [&](int stage, int k0) {
        copy_tile<BM, BK>(As + stage * A_TILE, A_STRIDE, A, K, block_row, k0, M, K, aligned);
        copy_tile<BK, BN>(Bs + stage * B_TILE, B_STRIDE, B, N, k0, block_col, K, N, aligned);
    };

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    const int tiles = (K + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles) load_tile(s, s * BK);
        commit_copies();
    }
    for (int t = 0; t < tiles; ++t) {
        wait_copies<STAGES - 2>();
        __syncthreads();
        const int next = t + STAGES - 1;
        if (next < tiles) load_tile(next % STAGES, next * BK);
        commit_copies();
        const float* const as = As + (t % STAGES) * A_TILE + warp_row * A_STRIDE;
        const float* const bs = Bs + (t % STAGES) * B_TILE + warp_col;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[4];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                wmma::load_matrix_sync(a[i], as + 16 * i * A_STRIDE + kk, A_STRIDE);
#pragma unroll
                for (int e = 0; e < a[i].num_elements; ++e) a[i].x[e] = wmma::__float_to_tf32(a[i].x[e]);
            }
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                wmma::load_matrix_sync(b[j], bs + kk * B_STRIDE + 16 * j, B_STRIDE);
#pragma unroll
                for (int e = 0; e < b[j].num_elements; ++e) b[j].x[e] = wmma::__float_to_tf32(b[j].x[e]);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
    wait_copies<0>();
    __syncthreads();  // every warp is done with the tiles; their memory now stages the output

    float* const out = tf32_smem + warp * 64 * OUT_STRIDE;
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(out + 16 * i * OUT_STRIDE + 16 * j, acc[i][j], OUT_STRIDE, wmma::mem_row_major);
    __syncwarp();
    const int lane = threadIdx.x % 32;
    const int gc = block_col + warp_col + lane;
    if (gc < N) {
        for (int r = 0; r < 64; ++r) {
            const int gr = block_row + warp_row + r;
            if (gr >= M) break;
            C[static_cast<size_t>(gr) * N + gc] = out[r * OUT_STRIDE + lane];
        }
    }
}
