// kplay: task=grayscale kernel=gray_grid_stride args=in,out,n launch=1d block=256 grid=sms*8
//
// Step 6 of the grayscale ladder: the 16-byte kernel as a grid-stride loop over a grid sized to the
// GPU (8 blocks of 256 per SM, `sms` is the device's SM count), so each thread handles several chunks
// and the launch no longer grows with the image. The next chunk's loads can be issued while the
// previous one's are in flight.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 7680x4320): 0.0353 ms, 3760 GB/s = 91.0% of the
// copy ceiling: a little slower than step 5, whose one-shot blocks already keep every SM full.

__device__ __forceinline__ unsigned gray_byte(unsigned r, unsigned g, unsigned b, int shift) {
    const float v = 0.2989f * ((r >> shift) & 255u) + 0.5870f * ((g >> shift) & 255u) + 0.1140f * ((b >> shift) & 255u);
    return static_cast<unsigned>(v) << shift;
}

__device__ __forceinline__ unsigned gray_word(unsigned r, unsigned g, unsigned b) {
    return gray_byte(r, g, b, 0) | gray_byte(r, g, b, 8) | gray_byte(r, g, b, 16) | gray_byte(r, g, b, 24);
}

__global__ void gray_grid_stride(const unsigned char* __restrict__ x, unsigned char* __restrict__ out, int n) {
    const int stride = gridDim.x * blockDim.x;
    const int first = blockIdx.x * blockDim.x + threadIdx.x;
    if ((n & 15) == 0) {
        const int chunks = n / 16;
        const uint4* r = reinterpret_cast<const uint4*>(x);
        const uint4* g = reinterpret_cast<const uint4*>(x + n);
        const uint4* b = reinterpret_cast<const uint4*>(x + 2 * n);
        uint4* o = reinterpret_cast<uint4*>(out);
        for (int c = first; c < chunks; c += stride) {
            const uint4 rv = r[c], gv = g[c], bv = b[c];
            o[c] = make_uint4(gray_word(rv.x, gv.x, bv.x), gray_word(rv.y, gv.y, bv.y), gray_word(rv.z, gv.z, bv.z),
                              gray_word(rv.w, gv.w, bv.w));
        }
    } else {
        for (int j = first; j < n; j += stride)
            out[j] = static_cast<unsigned char>(0.2989f * x[j] + 0.5870f * x[j + n] + 0.1140f * x[j + 2 * n]);
    }
}
