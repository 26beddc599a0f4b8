scale
// kplay: kernel=scale launch=1d block=128
// kplay-sweep: block_x=64..1024 step *2; restrict block_x*2 <= threads_max
// kplay-sweep: n=1000,2000; -DUNROLL=1..8 step +3
//
// A kernel for the sweep tests that is correct only for some block sizes, and fastest where it is
// wrong: with 512 threads or more a block skips the second half of its elements (too few threads, as
// if it assumed a smaller block), so those points do half the work and must still never win.
//
// kplay-task: name=scale reference=host view=series
// kplay-sizes: n default=1048576 cpu=65536 test=1,1000,1025 bench=1048576
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out check=exact
// kplay-cost: bytes=8*n ceiling=copy

__global__ void scale(const float* x, float* y, int n) {
    if (blockDim.x >= 512 && threadIdx.x >= blockDim.x / 2) return;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}
#endif
