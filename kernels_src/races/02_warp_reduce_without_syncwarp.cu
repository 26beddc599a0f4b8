// kplay: kernel=reduce_warp_unsynced launch=1d block=256 requires=block_x==256
//
// Race 2: the last six levels of a reduction tree done "warp-synchronously": once 32 or fewer threads
// are active, the old idiom drops the barriers because one warp ran in lockstep. Since Volta (2017) the
// threads of a warp are scheduled independently, and without `volatile` the compiler also keeps
// partial[t] in a register, so lane t may read partial[t + 16] before lane t + 16 has added into it.
// It often still passes on a GPU, which is why the idiom survives in tutorials. The emulated device
// reports it as a race between two lanes of one warp, with that explanation.
// The fix: __syncwarp() between the levels (kernels_src/races/05_warp_reduce_with_syncwarp.cu), or
// warp shuffles (kernels_src/reduction/04_warp_shuffle.cu).
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=1048576 cpu=65536 test=1,1000,1025,4099
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only
namespace {
constexpr unsigned BLOCK = 256;
}

__global__ void reduce_warp_unsynced(const float* __restrict__ x, float* total, int n) {
    __shared__ float partial[BLOCK];
    const unsigned t = threadIdx.x;
    const int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 32; s /= 2) {
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t < 32) {  // one warp left: no barrier, no __syncwarp, no volatile
        partial[t] += partial[t + 32];
        partial[t] += partial[t + 16];
        partial[t] += partial[t + 8];
        partial[t] += partial[t + 4];
        partial[t] += partial[t + 2];
        partial[t] += partial[t + 1];
    }
    if (t == 0) atomicAdd(total, partial[0]);
}
#ifdef KPLAY_REFERENCE
#include "../reduction/reference.h"
#endif
