faults
// kplay: task=grayscale kernel=rgb_to_gray args=in,out,n launch=1d block=256
// expect: stage=spec text=no kernel named 'rgb_to_gray'
//
// Fault: the annotation names a kernel the file does not have (a typo). kplay says so and lists the
// kernels that are there: "no kernel named 'rgb_to_gray'. The file has: rgb_to_grayscale_kernel (line 9)".

__global__ void rgb_to_grayscale_kernel(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0.2989 * x[i] + 0.5870 * x[i + n] + 0.1140 * x[i + 2 * n];
}
