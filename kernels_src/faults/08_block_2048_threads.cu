// kplay: task=grayscale kernel=wide_block args=in,out,n launch=1d block=2048
// expect: stage=launch text=2048 threads
//
// Fault: a block of 2048 threads; the device allows 1024. kplay refuses the launch before it happens and
// names the limit: "The block has 2048 threads ...; the device allows at most 1024 per block".

__global__ void wide_block(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i];
}
