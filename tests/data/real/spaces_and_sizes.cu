// kplay: kernel=sum_chunks<unsigned int, 4> args=(const unsigned int*)x,out block=64 grid=cdiv(n,4*block_x) smem=4*block_x
// Values with spaces (a template argument `unsigned int`, a cast), a grid and a dynamic shared memory
// size over the block (block_x), and a kernel without a size parameter: it covers exactly its grid's
// elements (n is a multiple of 4*64), and its reference takes the task's size after the kernel's
// parameters.
// kplay-task: name=sum_chunks reference=host view=series
// kplay-sizes: n default=4096 cpu=1024 test=256,512
// kplay-buffer: x u32[n] in init=randint(0,1000)
// kplay-buffer: out u32[n/4] out
template <typename T, int PER>
__global__ void sum_chunks(const T* x, T* out) {
    extern __shared__ T partial[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    T total = 0;
    for (int k = 0; k < PER; ++k) total += x[i * PER + k];
    partial[threadIdx.x] = total;
    __syncthreads();
    out[i] = partial[threadIdx.x];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const unsigned int* x, unsigned int* out, int n) {
    for (int i = 0; i < n / 4; ++i) out[i] = x[4 * i] + x[4 * i + 1] + x[4 * i + 2] + x[4 * i + 3];
}
#endif
