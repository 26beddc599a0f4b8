// kplay: task=grayscale kernel=far_read args=in,out,n launch=1d block=256
// expect: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS
// expect-emulated: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS text=beyond the 47-bit address space
//
// Fault: a read one terabyte past the input buffer (an index computed from the wrong size). kplay
// reports CUDA_ERROR_ILLEGAL_ADDRESS and replaces the worker; the next run works.

__global__ void far_read(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i + (1ll << 40)];
}
