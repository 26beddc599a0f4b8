// kplay: task=grayscale kernel=oob_write args=in,out,n launch=1d block=256
// expect: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS
//
// Fault: an out-of-bounds write. The bounds check is missing and the index is scaled, so most threads
// write far past the end of `out`. kplay reports CUDA_ERROR_ILLEGAL_ADDRESS with the kernel and launch
// configuration, suggests a bounds check and prints the compute-sanitizer command that finds the line;
// the worker process is replaced because the fault leaves its CUDA context unusable.

__global__ void oob_write(unsigned char* x, unsigned char* out, int n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    out[i * 4096] = x[i % n];
}
