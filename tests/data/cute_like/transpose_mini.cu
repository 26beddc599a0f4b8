// A kernel written against a header library whose functions have no __device__ marks (include/mini_tensor,
// CuTe's style): it builds with its header folder (include=) and NVRTC's -default-device (nvrtc=).
// kplay-sizes: R,C default=96x80 cpu=96x80 test=1x1,17x33 bench=96x80
// kplay-buffer: a f32[R*C] in init=uniform(-1,1)
// kplay-buffer: b f32[C*R] out check=exact
// kplay: kernel=transpose_mini launch=2d block=16,16 grid=cdiv(C,16),cdiv(R,16) include=include nvrtc=-default-device
#include <mini_tensor/layout.hpp>

__global__ void transpose_mini(const float* a, float* b, int R, int C) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= R || col >= C) return;
    const mini::Layout2 in = mini::make_row_major(R, C);
    const mini::Tensor<const float> source = mini::make_tensor(a, in);
    const mini::Tensor<float> target = mini::make_tensor(b, mini::make_row_major(C, R));
    target(col, row) = source(row, col);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* a, float* b, int R, int C) {
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) b[c * R + r] = a[r * C + c];
}
#endif
