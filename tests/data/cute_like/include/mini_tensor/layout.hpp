// A small stand-in for CuTe's style (tests only): layouts and tensors whose functions carry no
// __host__ __device__ marks, as CuTe's many do when built the way CUTLASS builds them with NVRTC. They
// compile into device code only with -default-device (nvrtc=-default-device in the kernel's annotation).
#pragma once

namespace mini {

struct Layout2 {
    int rows, cols, row_stride;
};

inline Layout2 make_row_major(int rows, int cols) { return Layout2{rows, cols, cols}; }
inline int offset(const Layout2& layout, int row, int col) {
    return layout.row_stride == 1 ? row + col * layout.rows : row * layout.row_stride + col;
}

template <class T>
struct Tensor {
    T* data;
    Layout2 layout;
    T& operator()(int row, int col) const { return data[offset(layout, row, col)]; }
};

template <class T>
Tensor<T> make_tensor(T* data, Layout2 layout) {
    return Tensor<T>{data, layout};
}

}  // namespace mini
