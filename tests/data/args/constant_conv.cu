// A 1D convolution whose 9 taps live in constant memory: every thread of a warp reads the same tap at
// once, which the constant cache broadcasts. kplay fills the __constant__ array from the kplay-constant
// line before the launches, and the reference reads the same values from its own array `filter`.
// kplay-sizes: n default=1048576 cpu=100000 test=1,1000,1025 bench=16777216
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: y f32[n] out check=rel:1e-5,abs:1e-5
// kplay-constant: filter f32[2*4+1] init=normal(0,1)
// kplay-cost: bytes=8*n ceiling=copy

#define RADIUS 4
__constant__ float filter[2 * RADIUS + 1];

__global__ void conv1d(const float* x, float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        const int j = i + k;
        if (j >= 0 && j < n) sum += filter[k + RADIUS] * x[j];
    }
    y[i] = sum;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            if (i + k >= 0 && i + k < n) sum += double(filter[k + RADIUS]) * x[i + k];
        y[i] = float(sum);
    }
}
#endif
