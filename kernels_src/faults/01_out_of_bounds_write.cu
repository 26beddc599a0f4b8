// kplay: task=grayscale kernel=oob_write args=in,out,n launch=1d block=256
// expect: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS
// expect-emulated: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS text=which is in no buffer at faults/01_out_of_bounds_write.cu:12
//
// Fault: an out-of-bounds write: `out` is indexed with a byte offset meant for another buffer, landing
// 16 GiB past its end. kplay reports CUDA_ERROR_ILLEGAL_ADDRESS with the kernel and launch
// configuration, suggests a bounds check and prints the compute-sanitizer command that finds the line;
// the worker process is replaced because the fault leaves its CUDA context unusable.

__global__ void oob_write(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i + (1ll << 34)] = x[i];
}
