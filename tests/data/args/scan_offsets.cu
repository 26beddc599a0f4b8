// An inclusive scan within each block of 256 over the second half of x, passed as the pointer x+n,
// with its optional block totals left out: partial_sums is a null pointer, which the kernel checks.
// kplay-sizes: n default=1048576 cpu=100000 test=1,1000,1025 bench=16777216
// kplay-buffer: x i32[2*n] in init=randint(-100,100)
// kplay-buffer: y i32[n] out
// kplay-cost: bytes=8*n ceiling=copy
// kplay: args=x+n,y,null,n block=256

__global__ void block_scan(const int* in, int* out, int* partial_sums, int n) {
    __shared__ int s[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        const int add = threadIdx.x >= stride ? s[threadIdx.x - stride] : 0;
        __syncthreads();
        s[threadIdx.x] += add;
        __syncthreads();
    }
    if (i < n) out[i] = s[threadIdx.x];
    if (partial_sums != nullptr && threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = s[threadIdx.x];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* in, int* out, int* partial_sums, int n) {
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        if (i % 256 == 0) sum = 0;
        sum += in[i];
        out[i] = sum;
    }
    if (partial_sums) partial_sums[0] = sum;  // never: the binding passes null
}
#endif
