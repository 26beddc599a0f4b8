// kplay: task=matmul kernel=sgemm_vec<128,128,8,8,8> args=a,b,c,M,N,K launch=2d block=256 grid=cdiv(N,128),cdiv(M,128)
//
// Step 5 of the matmul ladder: the 2D-blocked kernel with 16-byte (float4) loads from global memory and
// from shared memory. Each thread fetches its share of the A and B tiles with one float4 load each,
// and reads its 8 values of A and of B from shared memory as two float4s, a quarter of the load
// instructions of step 4. Threads of a warp also read B in 16-byte pieces that map to distinct banks.
// float4 loads need rows that start on 16 bytes: when K or N is not a multiple of 4, or a tile hangs
// over an edge, the tile is loaded element by element instead (a uniform branch per tile).
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 4096): 5.71 ms, 24.1 TFLOP/s = 46.9% of cuBLAS fp32:
// slower than step 4. The scattered transposed stores of A into shared memory and the extra registers
// of the two load paths cost more than the wider loads save; the next steps (warp tiling, double
// buffering) are where this design pays off.

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_vec(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    constexpr int THREADS = (BM / TM) * (BN / TN);
    static_assert(BM * BK == THREADS * 4 && BK * BN == THREADS * 4, "one float4 of A and of B per thread and tile");
    __shared__ __align__(16) float As[BK][BM];  // transposed: As[k][row]
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;
    // This thread's float4 of the A tile (row a_r, k a_k..a_k+3) and of the B tile (k b_k, column b_c..b_c+3).
    const int a_r = tid / (BK / 4), a_k = (tid % (BK / 4)) * 4;
    const int b_k = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;
    const bool aligned = (K % 4 == 0) && (N % 4 == 0);

    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool interior = aligned && block_row + BM <= M && block_col + BN <= N && k0 + BK <= K;
        if (interior) {
            const float4 a = *reinterpret_cast<const float4*>(&A[static_cast<size_t>(block_row + a_r) * K + k0 + a_k]);
            As[a_k + 0][a_r] = a.x;
            As[a_k + 1][a_r] = a.y;
            As[a_k + 2][a_r] = a.z;
            As[a_k + 3][a_r] = a.w;
            *reinterpret_cast<float4*>(&Bs[b_k][b_c]) =
                *reinterpret_cast<const float4*>(&B[static_cast<size_t>(k0 + b_k) * N + block_col + b_c]);
        } else {
            for (int e = tid; e < BM * BK; e += THREADS) {
                const int r = e / BK, kk = e % BK, gr = block_row + r, gk = k0 + kk;
                As[kk][r] = gr < M && gk < K ? A[static_cast<size_t>(gr) * K + gk] : 0.0f;
            }
            for (int e = tid; e < BK * BN; e += THREADS) {
                const int kk = e / BN, cc = e % BN, gk = k0 + kk, gc = block_col + cc;
                Bs[kk][cc] = gk < K && gc < N ? B[static_cast<size_t>(gk) * N + gc] : 0.0f;
            }
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float a_frag[TM], b_frag[TN];
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&As[kk][thread_row * TM + i]);
                a_frag[i] = v.x, a_frag[i + 1] = v.y, a_frag[i + 2] = v.z, a_frag[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&Bs[kk][thread_col * TN + j]);
                b_frag[j] = v.x, b_frag[j + 1] = v.y, b_frag[j + 2] = v.z, b_frag[j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int gr = block_row + thread_row * TM + i;
        if (gr >= M) break;
        if (aligned && block_col + thread_col * TN + TN <= N) {
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                *reinterpret_cast<float4*>(&C[static_cast<size_t>(gr) * N + block_col + thread_col * TN + j]) =
                    make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
        } else {
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int gc = block_col + thread_col * TN + j;
                if (gc < N) C[static_cast<size_t>(gr) * N + gc] = acc[i][j];
            }
        }
    }
}
