// kplay: kernel=copy args=in,out,R,C launch=2d block=32,8
// The trusted reference of tma_copy.cu: a plain copy, run on the emulated CPU device.
__global__ void copy(const float* in, float* out, int R, int C) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < R && col < C) out[row * C + col] = in[row * C + col];
}
