// kplay: task=grayscale kernel=gray_float args=in,out,n launch=1d block=256
//
// Step 3 of the grayscale ladder: the seed's formula in float instead of double (0.2989f...), with
// __restrict__ so the compiler knows the input and output do not overlap. Hopper runs fp64 at a
// fraction of its fp32 rate and each double conversion costs instructions; the result may differ from
// the double reference by one level at a rounding boundary, which the check allows.
//
// Measured (H200, 2026-11-29, kplay-cli bench --size 7680x4320): 0.0926 ms, 1434 GB/s = 34.7% of the
// 4134 GB/s copy ceiling: float alone gains 3% over the seed; the loads, not the arithmetic, hold it back.

__global__ void gray_float(const unsigned char* __restrict__ x, unsigned char* __restrict__ out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0.2989f * x[i] + 0.5870f * x[i + n] + 0.1140f * x[i + 2 * n];
}
