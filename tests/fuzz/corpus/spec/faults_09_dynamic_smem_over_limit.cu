faults
// kplay: task=grayscale kernel=big_smem args=in,out,n launch=1d block=256 smem=300000
// expect: stage=launch text=the device allows at most
//
// Fault: 300000 bytes of dynamic shared memory, more than any block may have even with the opt-in
// (227 KiB on an H200). kplay refuses the launch and says by how many bytes it is over.

__global__ void big_smem(unsigned char* x, unsigned char* out, int n) {
    extern __shared__ unsigned char staging[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staging[threadIdx.x] = i < n ? x[i] : 0;
    __syncthreads();
    if (i < n) out[i] = staging[threadIdx.x];
}
