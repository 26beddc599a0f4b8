// kplay: kernel=apply args=p
// kplay-struct: p x=x y=y n=n scale=0.5
// A struct with default member initialisers and a member function, filled by a kplay-struct line: the
// output reaches the kernel only through the struct's pointer, and is checked all the same.
// kplay-task: name=apply reference=host view=series
// kplay-sizes: n default=4096 cpu=1000 test=1,300
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out
struct Params {
    const float* x{};
    float* y = nullptr;
    int n{};
    float scale = 1.0f;
    __host__ __device__ int size() const { return n; }
};

__global__ void apply(Params p) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.size()) p.y[i] = p.x[i] * p.scale;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(Params p) {
    for (int i = 0; i < p.n; ++i) p.y[i] = p.x[i] * p.scale;
}
#endif
