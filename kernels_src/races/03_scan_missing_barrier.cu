// kplay: kernel=scan_missing_barrier block=1024 grid=1
//
// Race 3: a Kogge-Stone scan (the scan ladder's step 1, kernels_src/scan/01_kogge_stone_one_block.cu)
// with one of its two barriers per step deleted: the one between "everyone reads its left neighbour"
// and "everyone adds into its own element". Thread t reads xy[t - stride] while thread t - stride may
// already have added into it at this same step, so an element can count part of its left side twice.
// On a GPU this passes most of the time; it is still wrong.
// The fix: __syncthreads() between the read and the write.
//
// kplay-task: name=scan reference=host view=series
// kplay-sizes: n default=65536 cpu=16384 test=1,1000,1025,4099
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: y f32[n] out check=rel:2e-6+3e-9*sqrt(n)
// kplay-torch: y = torch.cumsum(x.double(), 0)
// kplay-buffer: work u32[2*cdiv(n,1024)+4] scratch init=zero
// kplay-cost: bytes=8*n ceiling=copy
namespace {
constexpr int SECTION = 1024;
}

__global__ void scan_missing_barrier(const float* __restrict__ x, float* __restrict__ y, unsigned* work, int n) {
    (void)work;
    __shared__ float xy[SECTION];
    const int t = threadIdx.x;
    float carry = 0.0f;
    for (int base = 0; base < n; base += SECTION) {
        const int i = base + t;
        xy[t] = i < n ? x[i] : 0.0f;
        for (int stride = 1; stride < SECTION; stride *= 2) {
            __syncthreads();
            const float left = t >= stride ? xy[t - stride] : 0.0f;
            // missing: __syncthreads();
            if (t >= stride) xy[t] += left;
        }
        __syncthreads();
        if (i < n) y[i] = carry + xy[t];
        carry += xy[SECTION - 1];
        __syncthreads();
    }
}
#ifdef KPLAY_REFERENCE
#include "../scan/reference.h"
#endif
