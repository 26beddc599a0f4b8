// kplay: task=matmul kernel=matmul_tiled_k<16> args=a,b,c,M,N,K launch=2d block=16,16
//
// Step 3 of the matmul ladder: the same tiling with the tile width as a template parameter, so the
// tiles are static __shared__ arrays and the inner loop has a compile-time trip count the compiler can
// unroll. kplay instantiates the template through the name expression matmul_tiled_k<16>; change the
// annotation to matmul_tiled_k<32> with block=32,32 to try another width.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 4096): 16.92 ms, 8.12 TFLOP/s = 15.8% of cuBLAS
// fp32, 1.28x the dynamic
// version: the unrolled inner loop drops the run-time index arithmetic.
#include "kplay.cuh"

template <int TW>
__global__ void matmul_tiled_k(float *m, float *n, float *out, int h, int w, int k) {
    __shared__ float ms[TW][TW];
    __shared__ float ns[TW][TW];
    int tc=threadIdx.x, tr=threadIdx.y;
    int r=blockIdx.y*TW+tr, c=blockIdx.x*TW+tc;

    float p = 0.0f;
    for (int ph = 0; ph < cdiv(k,TW); ++ph) {
        int idx = ph*TW;
        ms[tr][tc] = r<h && idx+tc<k ? m[ tc+idx + r*k ] : 0.0f;
        ns[tr][tc] = c<w && idx+tr<k ? n[(tr+idx)*w + c] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i=0; i<TW; ++i) p += ms[tr][i] * ns[i][tc];
        __syncthreads();
    }
    if (r<h && c<w) out[r*w + c] = p;
}
