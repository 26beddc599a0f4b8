grayscale
// kplay: task=grayscale kernel=gray_uchar4 args=in,out,n launch=1d block=256 grid=cdiv(n,4*256)
//
// Step 4 of the grayscale ladder: four pixels per thread with 4-byte (uchar4) loads and stores, a
// quarter of the memory instructions and four times the bytes in flight per thread. The planes start at
// multiples of n, so they are 4-byte aligned only when n is a multiple of 4; other sizes take a scalar
// path (the branch is uniform: every thread takes the same side).
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 7680x4320): 0.0376 ms, 3533 GB/s = 85.5% of the
// copy ceiling, 2.5x step 3.

__device__ __forceinline__ unsigned char gray(unsigned r, unsigned g, unsigned b) {
    return 0.2989f * r + 0.5870f * g + 0.1140f * b;
}

__global__ void gray_uchar4(const unsigned char* __restrict__ x, unsigned char* __restrict__ out, int n) {
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i >= n) return;
    if ((n & 3) == 0) {
        const uchar4 r = *reinterpret_cast<const uchar4*>(x + i);
        const uchar4 g = *reinterpret_cast<const uchar4*>(x + n + i);
        const uchar4 b = *reinterpret_cast<const uchar4*>(x + 2 * n + i);
        *reinterpret_cast<uchar4*>(out + i) = make_uchar4(gray(r.x, g.x, b.x), gray(r.y, g.y, b.y), gray(r.z, g.z, b.z), gray(r.w, g.w, b.w));
    } else {
        for (int j = i; j < i + 4 && j < n; ++j) out[j] = gray(x[j], x[j + n], x[j + 2 * n]);
    }
}
