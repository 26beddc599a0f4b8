// kplay: task=matmul kernel=sgemm_warptiled args=a,b,c,M,N,K launch=2d block=256 grid=cdiv(N,128),cdiv(M,128)
//
// Step 8 of the matmul ladder: warp tiling. Step 7 gave each thread outputs spread over all 128 columns,
// so every warp read the whole B row of a tile from shared memory on each k. Here each of the 8 warps
// owns a 64x32 block of the tile (2 warps down, 4 across) and its 32 threads cover it as 8 rows of 4
// threads: per k a warp reads 64 values of A and 32 of B instead of 16 and 128, a third less shared
// memory traffic for the same 2048 FMAs. Each thread computes 8 rows by two groups of 4 columns 16
// apart. The rest is step 7: 16-deep k tiles, double buffering through registers, one barrier per
// tile, 16-byte loads inside the matrix and guarded scalars at its edges, so any M, N, K work.
//
// Measured (H200, 2026-11-29, kplay-cli bench kernels_src/matmul/0[678]*.cu --size 4096): 3.18 ms,
// 43.2 TFLOP/s = 84.4% of cuBLAS fp32 (51.1 TFLOP/s in that run), 1.01x step 7 in the same run: shared
// memory traffic was not what held step 7 back. With 128 registers per thread only 16 warps fit on an
// SM, too few to hide the latency of each k step; a larger per-warp tile and fewer, fatter threads are
// the next thing to try.

namespace {
constexpr int BM = 128, BN = 128, BK = 16;
}

__global__ void __launch_bounds__(256, 2)
sgemm_warptiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    __shared__ __align__(16) float As[2][BK][BM];  // transposed: As[buffer][k][row]
    __shared__ __align__(16) float Bs[2][BK][BN];
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int warp_row = (warp / 4) * 64, warp_col = (warp % 4) * 32;  // this warp's 64x32 block
    const int lane_row = (lane / 4) * 8, lane_col = (lane % 4) * 4;    // this thread's 8 rows, columns +0 and +16
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    // The float4 this thread loads per tile: A row a_r, k a_k..a_k+3; B k b_k, columns b_c..b_c+3.
    const int a_r = tid / 4, a_k = (tid % 4) * 4;      // rows a_r and a_r + 64
    const int b_k = tid / 32, b_c = (tid % 32) * 4;    // k rows b_k and b_k + 8
    const bool rows_aligned = (K % 4 == 0) && (N % 4 == 0);

    float4 a_next[2], b_next[2];
    auto load_one = [&](int k0, int part) {
        float4& a_out = a_next[part];
        float4& b_out = b_next[part];
        const int gr = block_row + a_r + 64 * part, gk = k0 + a_k;
        if (rows_aligned && gr < M && gk + 3 < K) {
            a_out = *reinterpret_cast<const float4*>(&A[static_cast<size_t>(gr) * K + gk]);
        } else {
            const float* row = &A[static_cast<size_t>(gr) * K];
            a_out.x = gr < M && gk + 0 < K ? row[gk + 0] : 0.0f;
            a_out.y = gr < M && gk + 1 < K ? row[gk + 1] : 0.0f;
            a_out.z = gr < M && gk + 2 < K ? row[gk + 2] : 0.0f;
            a_out.w = gr < M && gk + 3 < K ? row[gk + 3] : 0.0f;
        }
        const int bk = k0 + b_k + 8 * part, bc = block_col + b_c;
        if (rows_aligned && bk < K && bc + 3 < N) {
            b_out = *reinterpret_cast<const float4*>(&B[static_cast<size_t>(bk) * N + bc]);
        } else {
            const float* row = &B[static_cast<size_t>(bk) * N];
            b_out.x = bk < K && bc + 0 < N ? row[bc + 0] : 0.0f;
            b_out.y = bk < K && bc + 1 < N ? row[bc + 1] : 0.0f;
            b_out.z = bk < K && bc + 2 < N ? row[bc + 2] : 0.0f;
            b_out.w = bk < K && bc + 3 < N ? row[bc + 3] : 0.0f;
        }
    };
    auto load_tile = [&](int k0) {
        load_one(k0, 0);
        load_one(k0, 1);
    };
    auto store_tile = [&](int buffer) {
#pragma unroll
        for (int part = 0; part < 2; ++part) {
            As[buffer][a_k + 0][a_r + 64 * part] = a_next[part].x;
            As[buffer][a_k + 1][a_r + 64 * part] = a_next[part].y;
            As[buffer][a_k + 2][a_r + 64 * part] = a_next[part].z;
            As[buffer][a_k + 3][a_r + 64 * part] = a_next[part].w;
            *reinterpret_cast<float4*>(&Bs[buffer][b_k + 8 * part][b_c]) = b_next[part];
        }
    };

    float acc[8][8] = {};  // rows lane_row..+7; columns lane_col..+3 and 16+lane_col..+3
    const int tiles = (K + BK - 1) / BK;
    load_tile(0);
    store_tile(0);
    __syncthreads();
    for (int t = 0; t < tiles; ++t) {
        const int current = t & 1;
        if (t + 1 < tiles) load_tile((t + 1) * BK);  // in flight while we compute
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[current][kk][warp_row + lane_row]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[current][kk][warp_row + lane_row + 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[current][kk][warp_col + lane_col]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[current][kk][warp_col + 16 + lane_col]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] += a[i] * b[j];
        }
        if (t + 1 < tiles) store_tile(current ^ 1);
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int gr = block_row + warp_row + lane_row + i;
        if (gr >= M) continue;
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int gc = block_col + warp_col + half * 16 + lane_col;
            const float* v = &acc[i][half * 4];
            if (rows_aligned && gc + 3 < N) {
                *reinterpret_cast<float4*>(&C[static_cast<size_t>(gr) * N + gc]) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                for (int j = 0; j < 4; ++j)
                    if (gc + j < N) C[static_cast<size_t>(gr) * N + gc + j] = v[j];
            }
        }
    }
}
