// kplay: task=grayscale kernel=rgb_to_grayscale_kernel args=in,out,n launch=1d block=256
//
// Step 1 of the grayscale ladder: the seed lecture's kernel, unchanged. One thread per pixel over a
// flat index i; the image is planar (all R, then all G, then all B), so the three loads are x[i],
// x[i+n] and x[i+2n]. The weights are double literals, so the arithmetic runs in double precision.
// The bounds check `i<n` lets the last block hang over the end of the image.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 7680x4320): 0.0953 ms, 1393 GB/s = 33.7% of the
// 4134 GB/s copy ceiling.

__global__ void rgb_to_grayscale_kernel(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    if (i<n) out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];
}
