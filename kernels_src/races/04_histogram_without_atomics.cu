// kplay: kernel=histogram_plain_add args=pixels,bins,3*w*h launch=1d block=256 grid=cdiv(3*w*h,256)
//
// Race 4: a histogram whose threads count with a plain `bins[v] += 1` instead of atomicAdd. Two threads
// that see the same value both read the old count, both add one, and one increment is lost. Unlike the
// shared-memory races above, this one is between threads of different blocks too, in global memory,
// and on a GPU it loses most counts at once. The emulated device names two threads that wrote the
// same bin without an atomic.
// The fix: atomicAdd(&bins[v], 1u) (kernels_src/histogram/01_global_atomics.cu).
//
// kplay-task: name=histogram reference=host view=bars
// kplay-sizes: w,h default=640x480 cpu=160x100 test=1x1,3x5,33x17
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
// kplay-torch: bins = torch.bincount(pixels.long(), minlength=256)
// kplay-cost: bytes=3*w*h ceiling=read-only
__global__ void histogram_plain_add(const unsigned char* __restrict__ pixels, unsigned int* __restrict__ bins, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) bins[pixels[i]] += 1u;
}
#ifdef KPLAY_REFERENCE
#include "../histogram/reference.h"
#endif
