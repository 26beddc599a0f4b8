// kplay: task=matmul
// A PyTorch load_inline source with a 2D launch: dim3 variables for the block and the grid, the grid
// from the output's width and height. kplay reads both from the wrapper (tests/host_code_test.cpp).
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>

#define CHECK_CUDA(x) TORCH_CHECK((x).device().is_cuda(), #x " is not on the GPU")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " is not contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

inline unsigned int cdiv(unsigned int total, unsigned int per) { return (total + per - 1) / per; }

// One thread per element of the rows x cols output; `inner` is the shared dimension.
__global__ void matmul_naive(float* left, float* right, float* product, int rows, int cols, int inner) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows || c >= cols) return;
    float sum = 0;
    for (int i = 0; i < inner; ++i) sum += left[r * inner + i] * right[i * cols + c];
    product[r * cols + c] = sum;
}

torch::Tensor matmul(torch::Tensor left, torch::Tensor right) {
    CHECK_INPUT(left);
    CHECK_INPUT(right);
    int rows = left.size(0);
    int cols = right.size(1);
    int inner = left.size(1);
    TORCH_CHECK(inner == right.size(0), "the inner sizes differ");
    auto product = torch::zeros({rows, cols}, left.options());
    dim3 tpb(16, 16);
    dim3 blocks(cdiv(cols, tpb.x), cdiv(rows, tpb.y));
    matmul_naive<<<blocks, tpb>>>(left.data_ptr<float>(), right.data_ptr<float>(), product.data_ptr<float>(), rows, cols, inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return product;
}
