// kplay: task=matmul kernel=register_heavy args=a,b,c,M,N,K launch=1d block=1024
// expect: stage=launch text=registers per thread
// expect-emulated: skip (registers per thread are a GPU limit; the CPU runs the launch)
//
// Fault: a kernel that keeps 96 running sums in registers, launched with 1024 threads per block. At
// more than 64 registers per thread a block of 1024 no longer fits the SM's 65536 registers; kplay
// reads the compiled kernel's limit and refuses the launch, naming its register count.

__global__ void register_heavy(float* a, float* b, float* c, int M, int N, int K) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= M) return;
    float sums[96];
#pragma unroll
    for (int j = 0; j < 96; ++j) sums[j] = b[j];
    for (int k = 0; k < K; ++k) {
        float v = a[i * K + k];
#pragma unroll
        for (int j = 0; j < 96; ++j) sums[j] = sums[j] * v + b[(k * 96 + j) % (K * N)];
    }
    float total = 0;
#pragma unroll
    for (int j = 0; j < 96; ++j) total += sums[j];
    c[i] = total;
}
