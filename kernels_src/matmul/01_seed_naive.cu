// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K launch=2d block=16,16
//
// Step 1 of the matmul ladder: the seed lecture's naive kernel, unchanged. One thread per output
// element out[r][c]; it walks row r of m and column c of n from global memory, so every input value is
// read again by each thread that needs it (K times in all). Launched with 16x16 blocks as in the lecture.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 4096): 25.80 ms, 5.33 TFLOP/s = 10.4% of cuBLAS fp32.

__global__ void matmul_k(float* m, float* n, float* out, int h, int w, int k) {
    int r = blockIdx.y*blockDim.y + threadIdx.y;
    int c = blockIdx.x*blockDim.x + threadIdx.x;

    if (r>=h || c>=w) return;
    float o = 0;
    for (int i = 0; i<k; ++i) o += m[r*k+i] * n[i*w+c];
    out[r*w+c] = o;
}
