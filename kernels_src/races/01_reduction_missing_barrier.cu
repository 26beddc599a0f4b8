// kplay: kernel=reduce_missing_barrier launch=1d block=256 requires=block_x==256
//
// Race 1: a shared-memory reduction tree that lost the barrier between its levels. It is the reduction
// ladder's step 2 (kernels_src/reduction/02_shared_tree_interleaved.cu) with the __syncthreads() inside
// the loop deleted. At level s, thread t adds partial[t + s], which thread t + s wrote at the level
// before: with no barrier between, nothing says that write has happened yet. On a GPU the two threads
// are in different warps from s = 32 on, so the sum is right or wrong depending on how the warps were
// scheduled that time; on the emulated device it depends on the thread order. Either way the kernel is
// wrong. kplay's emulated device reports the pair of accesses (both threads, both lines, the element)
// the same at every order; on a GPU, compute-sanitizer's racecheck finds it.
// The fix: the barrier at the end of each level, as in the ladder's step 2.
//
// kplay-task: name=reduction reference=host view=scalar
// kplay-sizes: n default=1048576 cpu=65536 test=1,1000,1025,4099
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-7*n+1e-6
// kplay-torch: total = x.double().sum()
// kplay-cost: bytes=4*n ceiling=read-only
namespace {
constexpr unsigned BLOCK = 256;  // threads per block: the launch's block= must equal it
}

__global__ void reduce_missing_barrier(const float* __restrict__ x, float* total, int n) {
    __shared__ float partial[BLOCK];
    const unsigned t = threadIdx.x;
    const int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        if (t % (2 * s) == 0) partial[t] += partial[t + s];
        // missing: __syncthreads();
    }
    if (t == 0) atomicAdd(total, partial[0]);
}
#ifdef KPLAY_REFERENCE
#include "../reduction/reference.h"
#endif
