// kplay: kernel=reduce_atomic_each launch=1d block=256
//
// Step 1 of the reduction ladder: every thread adds its element straight into the total with one
// atomicAdd (PMPP chapter 9's atomic operations). It is correct, since the hardware makes each
// read-modify-write indivisible, and it is the slowest way there is: all n atomics hit the same
// address, so the L2 slice that owns it performs them one after another, on the order of one per
// clock: the 64M-element run takes 118 ms (below), where the data could be read in about 63 us. Every
// later step keeps the atomic but does it once per block, then once per few thousand elements.
// The order of the atomics changes from run to run, so the float result does too, in the last bits.
// The inputs are uniform(-1,1), not (0,1), on purpose: a float sum of positive numbers grows to
// n/2 and from 2^24 on each new element is below half an ulp of the sum and rounds away (the total
// stops growing at 16777216), so this step would be wrong by millions at n = 64M. With both signs
// the running sum is a random walk of size about sqrt(n/3) (under 5000 at 64M), where an ulp is
// 2^-11 and the rounding errors of n additions stay below the tolerance 1e-7*n + 1e-6 (6.7 at 64M).
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/reduction/*.cu --repeat 20): 118 ms, 2 GB/s = 0.1%
// of the read-only ceiling (4244 GB/s).
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=67108864 cpu=262144 test=1,1000,1025,4099 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only

__global__ void reduce_atomic_each(const float* __restrict__ x, float* total, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, x[i]);
}
#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
