// kplay: kernel=scale_add<float, 256> args=x,y,f=0.02,n block=256
// An argument typed by a template parameter (T f): the instance a_kernel<float, 256> takes a float, so
// 0.02 is passed as one.
// kplay-task: name=scale_add reference=host view=series
// kplay-sizes: n default=4096 cpu=1000 test=1,300
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out
template <typename T, int BLOCK>
__global__ void scale_add(const T* x, T* y, T f, int n) {
    const int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) y[i] = x[i] * f + f;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, float f, int n) {
    for (int i = 0; i < n; ++i) y[i] = x[i] * f + f;
}
#endif
