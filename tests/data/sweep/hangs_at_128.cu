// kplay: kernel=scale launch=1d block=64
// kplay-sweep: block_x=64,128,256
//
// A kernel for the sweep tests that never finishes at one point: with 128 threads a block spins
// forever. The watchdog stops that point and the sweep goes on to the next.
//
// kplay-task: name=scale reference=host view=series
// kplay-sizes: n default=1048576 cpu=65536 test=1,1000 bench=1048576
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out check=exact
// kplay-cost: bytes=8*n ceiling=copy

__global__ void scale(const float* x, float* y, int n) {
    volatile int spin = 1;
    while (blockDim.x == 128 && spin) {
    }
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}
#endif
