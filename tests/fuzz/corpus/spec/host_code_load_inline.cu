grayscale
// kplay: task=grayscale
// A PyTorch load_inline source as a notebook hands it to torch.utils.cpp_extension.load_inline: the
// kernel, and a host wrapper that checks its tensor, allocates the output and launches. kplay builds
// the kernel without the host code and launches it as the wrapper does (tests/host_code_test.cpp).
#include <torch/extension.h>
#include <stdio.h>
#include <c10/cuda/CUDAException.h>

#define CHECK_CUDA(x) TORCH_CHECK((x).device().is_cuda(), #x " is not on the GPU")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " is not contiguous")
#define CHECK_INPUT(x) \
    CHECK_CUDA(x);     \
    CHECK_CONTIGUOUS(x)

inline unsigned int cdiv(unsigned int total, unsigned int per) { return (total + per - 1) / per; }

// Planar RGB in (all R, then all G, then all B), one gray byte per pixel out.
__global__ void to_gray(unsigned char* rgb, unsigned char* gray, int pixels) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < pixels) gray[p] = 0.2989 * rgb[p] + 0.5870 * rgb[p + pixels] + 0.1140 * rgb[p + 2 * pixels];
}

torch::Tensor rgb_to_grayscale(torch::Tensor image) {
    CHECK_INPUT(image);
    int height = image.size(1);
    int width = image.size(2);
    auto gray = torch::empty({height, width}, image.options());
    int threads = 256;
    to_gray<<<cdiv(width * height, threads), threads>>>(
        image.data_ptr<unsigned char>(), gray.data_ptr<unsigned char>(), width * height);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return gray;
}
