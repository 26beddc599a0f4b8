matmul
// kplay: task=matmul kernel=sgemm_2d<TILE_M,TILE_N,TILE_K,THREAD_M,THREAD_N> defines=TILE_M=128,TILE_N=128,TILE_K=8,THREAD_M=8,THREAD_N=8 args=a,b,c,M,N,K launch=2d block=(TILE_M/THREAD_M)*(TILE_N/THREAD_N) grid=cdiv(N,TILE_N),cdiv(M,TILE_M)
//
// Step 4 of the matmul ladder: 2D register blocking. A block of 256 threads computes a 128x128 tile of
// C; each thread keeps an 8x8 sub-tile of sums in registers. Per step of k it loads 8 values of A and 8
// of B from shared memory and does 64 FMAs with them, where the tiled kernels did one FMA per two
// shared-memory loads: the kernel stops being bound by shared-memory traffic. A is stored transposed in
// shared memory so a thread's 8 values of A are contiguous. Edge tiles are zero-filled and stores are
// guarded, so any M, N, K work.
//
// The tile sizes are -D defines the annotation's block and grid follow, so they can be tuned without
// editing: `kplay-cli run FILE -D THREAD_M=4` runs 512 threads of 4x8 sub-tiles, and
// `kplay-cli sweep FILE` times every point of the kplay-sweep line below, checked first.
// kplay-sweep: -DTILE_K=8,16; -DTHREAD_M=4,8; -DTHREAD_N=4,8
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 4096): 5.22 ms, 26.3 TFLOP/s = 51.2% of cuBLAS fp32
// (51.4 TFLOP/s), 3.2x step 3. Swept (H200, 2026-12-01, kplay-cli sweep FILE): -DTILE_K=16 4.96 ms
// (53.9%); in the window, -DTHREAD_M=16 -DTHREAD_N=4 4.84 ms (55.2%). Fewer, longer k-steps and taller
// thread tiles each buy a few percent; the next steps' vector loads and double buffering buy more.

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_2d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
    constexpr int THREADS = (BM / TM) * (BN / TN);
    __shared__ float As[BK][BM];  // transposed: As[k][row]
    __shared__ float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);
    const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

    float acc[TM][TN] = {};
    float a_frag[TM], b_frag[TN];
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = tid; e < BM * BK; e += THREADS) {
            const int r = e / BK, kk = e % BK;
            const int gr = block_row + r, gk = k0 + kk;
            As[kk][r] = gr < M && gk < K ? A[static_cast<size_t>(gr) * K + gk] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            const int kk = e / BN, cc = e % BN;
            const int gk = k0 + kk, gc = block_col + cc;
            Bs[kk][cc] = gk < K && gc < N ? B[static_cast<size_t>(gk) * N + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; ++i) a_frag[i] = As[kk][thread_row * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b_frag[j] = Bs[kk][thread_col * TN + j];
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
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int gc = block_col + thread_col * TN + j;
            if (gc < N) C[static_cast<size_t>(gr) * N + gc] = acc[i][j];
        }
    }
}
