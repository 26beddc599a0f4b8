// kplay: kernel=softmax_rows launch=1d block=128 grid=R requires=block_x==128
// A softmax whose threads read the row's maximum from shared memory (line 35) while lane 0 of warp 0 may
// already be writing its warp's sum into the same element (line 40): no barrier between the read and the
// write, a write-after-read race. The tests hold the race to exactly those two lines.
// kplay-task: name=softmax_lines reference=host view=series
// kplay-sizes: R,C default=8x200 cpu=8x200 test=1x1,2x33
// kplay-buffer: x f32[R*C] in init=normal(0,1)
// kplay-buffer: y f32[R*C] out check=rel:1e-4,abs:1e-6
__device__ float warp_max(float v) {
    for (int d = 16; d > 0; d /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
}
__device__ float warp_sum(float v) {
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

__global__ void softmax_rows(const float* x, float* y, int R, int C) {
    __shared__ float partial[4];
    __shared__ float row;
    const float* in = x + blockIdx.x * C;
    float* out = y + blockIdx.x * C;
    const int t = threadIdx.x, lane = t % 32, warp = t / 32;
    float m = -INFINITY;
    for (int c = t; c < C; c += blockDim.x) m = fmaxf(m, in[c]);
    m = warp_max(m);
    if (lane == 0) partial[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < 4 ? partial[lane] : -INFINITY;
        m = warp_max(m);
        if (lane == 0) row = m;
    }
    __syncthreads();
    const float row_max = row;
    float s = 0.0f;
    for (int c = t; c < C; c += blockDim.x) s += __expf(in[c] - row_max);
    s = warp_sum(s);
    if (warp == 0 && lane == 0)
        row = s;  // warp 0's sum, where other warps may still be reading the maximum
    if (lane == 0) partial[warp] = s;
    __syncthreads();
    const float total = partial[0] + partial[1] + partial[2] + partial[3];
    for (int c = t; c < C; c += blockDim.x) out[c] = __expf(in[c] - row_max) / total;
}

#ifdef KPLAY_REFERENCE
#include <cmath>
void kplay_reference(const float* x, float* y, int R, int C) {
    for (int r = 0; r < R; ++r) {
        double m = -INFINITY, s = 0;
        for (int c = 0; c < C; ++c) m = std::fmax(m, x[r * C + c]);
        for (int c = 0; c < C; ++c) s += std::exp(x[r * C + c] - m);
        for (int c = 0; c < C; ++c) y[r * C + c] = static_cast<float>(std::exp(x[r * C + c] - m) / s);
    }
}
#endif
