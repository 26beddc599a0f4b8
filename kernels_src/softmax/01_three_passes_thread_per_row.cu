// kplay: kernel=softmax_thread_per_row block=32 grid=cdiv(R,32)
//
// Step 1 of the softmax ladder: three passes over the row, one thread per row.
// softmax(x)_c = exp(x_c) / sum_k exp(x_k) overflows float for x above ~88, so every numerically stable
// softmax first subtracts the row max m: exp(x_c - m) is at most 1 and the largest term of the sum is
// exactly 1. This step is that definition written as a C loop: each thread takes one row and walks it
// three times (max, sum of exponentials, normalise), reading x three times and writing y once. It is
// correct and slow in two ways. Only R threads exist (4096 at the default size, 1024 at 1024x32768),
// a few percent of the ~270,000 an H200 can keep resident, so there is little memory traffic in flight.
// And the warp's loads do not coalesce (PMPP chapter 6): its 32 threads read 32 different rows, C floats
// apart, so every load instruction touches 32 separate 32-byte sectors to use 4 bytes of each.
// The sum is kept in double. A float running sum of 32768 positive terms drifts: once the partial sum
// is large, the many tiny terms (exp(x - m) for x far below the max) round away, and at 1024x32768 the
// outputs come out up to 6e-5 off (measured on the emulated device: 5067 elements over the 1e-5
// tolerance); a double sum makes the one-thread walk as exact as the trees of the later steps, which
// add short partial sums and need no such help.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/softmax/*.cu --repeat 20, with and without
// --image/--init): 4096x1024: 0.2224 ms, 151 GB/s = 3.7% of the copy ceiling (4116 GB/s); 1024x32768: 10.61
// ms, 25 GB/s = 0.6% of the copy ceiling (4116 GB/s).
//
// kplay-task: name=softmax reference=host view=matrix
// kplay-sizes: R,C default=4096x1024 cpu=64x1000 test=1x1,3x1000,33x17,2x4099,2x40000 bench=4096x1024,1024x32768
// kplay-buffer: x f32[R*C] in init=normal(0,3)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
// kplay-torch: y = torch.softmax(x.view(R, C).double(), dim=1)
// kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy

#include "kplay.cuh"

__global__ void softmax_thread_per_row(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= R) return;
    const float* xr = x + static_cast<size_t>(row) * C;  // size_t: R*C may pass 2^31 in other uses
    float* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: the row max.
    float m = -__int_as_float(0x7f800000);  // -infinity (NVRTC has no INFINITY macro without <cmath>)
    for (int c = 0; c < C; ++c) m = fmaxf(m, xr[c]);

    // Pass 2: the sum of exp(x - m); every term is in (0, 1], and at least one is exactly 1.
    double s = 0.0;
    for (int c = 0; c < C; ++c) s += expf(xr[c] - m);
    const float sum = static_cast<float>(s);

    // Pass 3: normalise. x is read a third time; recomputing exp is cheaper than storing it.
    for (int c = 0; c < C; ++c) yr[c] = expf(xr[c] - m) / sum;
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
