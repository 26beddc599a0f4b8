// kplay: task=grayscale kernel=gray_uint4 args=in,out,n launch=1d block=256 grid=cdiv(n,16*256)
//
// Step 5 of the grayscale ladder: sixteen pixels per thread with 16-byte (uint4) loads and stores, the
// widest the hardware issues. Each thread now has 48 bytes of loads in flight instead of 3, which is
// what it takes to cover DRAM latency at HBM3e bandwidth. Sizes that are not a multiple of 16 take a
// scalar path.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 7680x4320): 0.0325 ms, 4082 GB/s = 98.7% of the
// copy ceiling with the L2 flush (91.0% with --no-l2-flush; see docs/BENCHMARKS.md). The best step.

__device__ __forceinline__ unsigned gray_byte(unsigned r, unsigned g, unsigned b, int shift) {
    const float v = 0.2989f * ((r >> shift) & 255u) + 0.5870f * ((g >> shift) & 255u) + 0.1140f * ((b >> shift) & 255u);
    return static_cast<unsigned>(v) << shift;
}

__device__ __forceinline__ unsigned gray_word(unsigned r, unsigned g, unsigned b) {
    return gray_byte(r, g, b, 0) | gray_byte(r, g, b, 8) | gray_byte(r, g, b, 16) | gray_byte(r, g, b, 24);
}

__global__ void gray_uint4(const unsigned char* __restrict__ x, unsigned char* __restrict__ out, int n) {
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
    if (i >= n) return;
    if ((n & 15) == 0) {
        const uint4 r = *reinterpret_cast<const uint4*>(x + i);
        const uint4 g = *reinterpret_cast<const uint4*>(x + n + i);
        const uint4 b = *reinterpret_cast<const uint4*>(x + 2 * n + i);
        *reinterpret_cast<uint4*>(out + i) =
            make_uint4(gray_word(r.x, g.x, b.x), gray_word(r.y, g.y, b.y), gray_word(r.z, g.z, b.z), gray_word(r.w, g.w, b.w));
    } else {
        for (int j = i; j < i + 16 && j < n; ++j)
            out[j] = static_cast<unsigned char>(0.2989f * x[j] + 0.5870f * x[j + n] + 0.1140f * x[j + 2 * n]);
    }
}
