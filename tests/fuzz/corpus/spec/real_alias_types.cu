// kplay: kernel=axpy args=x,y,a=1/sqrt(4),n
// Parameters typed by an alias (FP is float): the binding and the reference check go by the type the
// alias names, so `a` takes 0.5 and a reference in plain float matches the kernel.
// kplay-task: name=axpy reference=host view=series
// kplay-sizes: n default=4096 cpu=1000 test=1,300
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] inout init=uniform(0,1)
typedef float FP;
using Index = int;

__global__ void axpy(const FP* x, FP* y, FP a, Index n) {
    const Index i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, float a, int n) {
    for (int i = 0; i < n; ++i) y[i] += a * x[i];
}
#endif
