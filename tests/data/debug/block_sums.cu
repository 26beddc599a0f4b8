// Each block's sum of its n/256-element slice of x (x[i] = i), by a shared-memory tree: the debugger
// tests' kernel (a loop with a barrier inside, a shared array whose content is known at each line).
// kplay-sizes: n default=1024 cpu=1024 test=1024
// kplay-buffer: x f32[n] in init=iota
// kplay-buffer: sums f32[n/256] out
// kplay: block=256 grid=n/256

__global__ void block_sums(const float* x, float* sums, int n) {
    __shared__ float partial[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* sums, int n) {
    for (int b = 0; b < n / 256; ++b) {
        double sum = 0;
        for (int i = 0; i < 256; ++i) sum += x[b * 256 + i];
        sums[b] = static_cast<float>(sum);
    }
}
#endif
