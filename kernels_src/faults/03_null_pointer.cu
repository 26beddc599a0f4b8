// kplay: task=grayscale kernel=null_write args=in,out,n launch=1d block=256
// expect: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS
// expect-emulated: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS text=wrote through a null pointer (address 0x
//
// Fault: a write through a null pointer (read from a volatile variable, so the compiler cannot see it
// is null). kplay reports CUDA_ERROR_ILLEGAL_ADDRESS and replaces the worker.

__global__ void null_write(unsigned char* x, unsigned char* out, int n) {
    unsigned char* volatile target = nullptr;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) target[i] = x[i];
}
