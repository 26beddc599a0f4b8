// kplay: kernel=reduce_warp_synced launch=1d block=256 requires=block_x==256
//
// Race 2 fixed: the same warp-level tail as 02_warp_reduce_without_syncwarp.cu, with each level split
// into a read, a __syncwarp(), a write and a __syncwarp(). The first makes every lane read before any
// lane writes (a lane's partner may be adding into the element it reads); the second makes the writes
// visible to the next level's reads. This is what CUDA's programming guide asks of warp-synchronous
// code since Volta, and kplay reports no race here.
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

__global__ void reduce_warp_synced(const float* __restrict__ x, float* total, int n) {
    __shared__ float partial[BLOCK];
    const unsigned t = threadIdx.x;
    const int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 32; s /= 2) {
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t < 32) {
        float sum = partial[t];
        for (unsigned s = 32; s > 0; s /= 2) {
            sum += partial[t + s];  // read the partner's value of the level before
            __syncwarp();
            partial[t] = sum;       // then publish this lane's
            __syncwarp();
        }
    }
    if (t == 0) atomicAdd(total, partial[0]);
}
#ifdef KPLAY_REFERENCE
#include "../reduction/reference.h"
#endif
