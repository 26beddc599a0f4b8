// Dequantising fp8 weights: each byte is an e4m3 value, scaled by its group of 32's factor and stored
// rounded to half precision, read back as float. The reference does the same through the same types.
// kplay: kernel=dequantise args=q,scales,y,n block=128
// kplay-sizes: n default=5000 test=1,31,32,1000
// kplay-buffer: q u8[n] in init=randint(0,126)
// kplay-buffer: scales f32[cdiv(n,32)] in init=uniform(0.5,2)
// kplay-buffer: y f32[n] out check=exact
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__host__ __device__ inline float dequantised(unsigned char bits, float scale) {
    __nv_fp8_e4m3 value;
    value.__x = bits;
    return __half2float(__float2half(static_cast<float>(value) * scale));
}

__global__ void dequantise(const unsigned char* q, const float* scales, float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = dequantised(q[i], scales[i / 32]);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const unsigned char* q, const float* scales, float* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = dequantised(q[i], scales[i / 32]);
}
#endif
