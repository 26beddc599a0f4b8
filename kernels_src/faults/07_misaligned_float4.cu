// kplay: task=matmul kernel=misaligned args=a,b,c,M,N,K launch=1d block=256
// expect: stage=run code=CUDA_ERROR_MISALIGNED_ADDRESS
// expect-emulated: stage=run code=CUDA_ERROR_ILLEGAL_ADDRESS text=past the end of
//
// Fault: a float4 load from an address that is 4 bytes past a 16-byte boundary. Vector loads must be
// aligned to their size; kplay reports CUDA_ERROR_MISALIGNED_ADDRESS and replaces the worker.

__global__ void misaligned(float* a, float* b, float* c, int M, int N, int K) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4* shifted = reinterpret_cast<const float4*>(a + 1);
    if (i < M * N / 4) {
        float4 v = shifted[i];  // all four lanes used, so this stays one 16-byte load
        c[i] = v.x + v.y + v.z + v.w;
    }
}
