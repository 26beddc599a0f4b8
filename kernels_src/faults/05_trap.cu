// kplay: task=grayscale kernel=trapper args=in,out,n launch=1d block=256
// expect: stage=run code=CUDA_ERROR_LAUNCH_FAILED
// expect-emulated: stage=run code=CUDA_ERROR_LAUNCH_FAILED text=__trap() was called at faults/05_trap.cu:9
//
// Fault: __trap() aborts the kernel. kplay reports it by its CUDA name and replaces the worker.

__global__ void trapper(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == n / 2) __trap();
    if (i < n) out[i] = x[i];
}
