// kplay: kernel=shared_types launch=1d block=64 requires=block_x==64
// Shared arrays of CUDA's 16-bit floats, a vector type and a struct with a constructor, each written,
// then read after a barrier: no race at any thread order (CUDA constructs no __shared__ object).
// kplay-task: name=shared_types reference=host view=series
// kplay-sizes: n default=4096 cpu=1024 test=1,100
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: y f32[n] out check=rel:1e-2,abs:1e-2
#include <cuda_bf16.h>
#include <cuda_fp16.h>

struct Pair {
    float a;
    int b;
    __device__ Pair() {}
};

__global__ void shared_types(const float* x, float* y, int n) {
    __shared__ half h[64];
    __shared__ __nv_bfloat16 b[64];
    __shared__ float2 f[64];
    __shared__ Pair p[64];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    const float v = i < n ? x[i] : 0.0f;
    h[t] = __float2half(v);
    b[t] = __float2bfloat16(v);
    f[t] = make_float2(v, 2 * v);
    p[t].a = v;
    p[t].b = t;
    __syncthreads();
    const int o = 63 - t;
    if (i < n) y[i] = __half2float(h[o]) + __bfloat162float(b[o]) + f[o].x + f[o].y + p[o].a + (p[o].b == o ? 0.0f : 100.0f);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) {
        const int first = i / 64 * 64, o = first + 63 - i % 64;
        const float v = o < n ? x[o] : 0.0f;
        y[i] = 6 * v;  // h + b + f.x + f.y + p.a: v + v + 3v + v
    }
}
#endif
