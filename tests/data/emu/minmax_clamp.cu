// Clamping counts with CUDA's min(unsigned, int), which compares as unsigned: a negative count is larger
// than any limit. The helper is __host__ __device__, so the host reference calls the same min.
// kplay: kernel=clamp_counts args=x,y,n,limit=20 block=64
// kplay-sizes: n default=1000 test=1,63,64
// kplay-buffer: x i32[n] in init=randint(-50,50)
// kplay-buffer: y u32[n] out check=exact

__host__ __device__ inline unsigned clamp_count(unsigned limit, int count) { return min(limit, count) + max(count, 0u) % 7u; }

__global__ void clamp_counts(const int* x, unsigned* y, int n, int limit) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = clamp_count(limit, x[i]);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* x, unsigned* y, int n, int limit) {
    for (int i = 0; i < n; ++i) y[i] = clamp_count(limit, x[i]);
}
#endif
