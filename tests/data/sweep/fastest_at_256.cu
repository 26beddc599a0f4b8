// kplay: kernel=scale launch=1d block=64
// kplay-sweep: block_x=32,64,128,256,512,1024
//
// A kernel for the pool sweep tests whose winner no timing noise can change: every block size but 256
// does 200 times the work (a volatile loop the compiler keeps), so block_x=256 wins on one worker and
// on several alike.
//
// kplay-task: name=scale reference=host view=series
// kplay-sizes: n default=1048576 cpu=65536 test=1,1000 bench=1048576
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out check=exact
// kplay-cost: bytes=8*n ceiling=copy

__global__ void scale(const float* x, float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    volatile float sink = 0.0f;
    const int rounds = blockDim.x == 256 ? 1 : 200;
    for (int r = 0; r < rounds; ++r) sink = sink + x[i];
    y[i] = 2.0f * x[i];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}
#endif
