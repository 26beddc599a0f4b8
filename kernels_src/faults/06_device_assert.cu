// kplay: task=grayscale kernel=asserter args=in,out,n launch=1d block=256
// expect: stage=run code=CUDA_ERROR_ASSERT
// expect-emulated: stage=run code=CUDA_ERROR_ASSERT text=assertion `i != n / 3` failed at faults/06_device_assert.cu:13
//
// Fault: a device-side assert that fails for one thread. The device prints the assertion (to the
// worker's stderr) and kplay reports CUDA_ERROR_ASSERT, then replaces the worker.
#ifndef __CUDACC_RTC__  // NVRTC has assert built in; nvcc takes it from the C library
#include <assert.h>
#endif

__global__ void asserter(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i != n / 3);
    if (i < n) out[i] = x[i];
}
