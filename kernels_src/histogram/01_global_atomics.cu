// kplay: kernel=histogram_global args=pixels,bins,3*w*h launch=1d block=256 grid=cdiv(3*w*h,256)
//
// Step 1 of the histogram ladder: one global atomicAdd per byte (PMPP chapter 9.2-9.3). Each thread
// reads one byte of the interleaved RGB image (consecutive threads, consecutive bytes: coalesced) and
// adds one to bins[byte] in global memory. The loads are cheap; the atomics are the whole cost. Every
// atomic goes to the L2 slice that owns its bin, and the 256 bins are only 1 KiB: eight 128-byte lines,
// so a handful of L2 slices serve all 132 SMs, and updates of one address are applied one after the
// other. On uniform random bytes the updates spread over the 256 bins and the warp's 32 atomics fall
// into all eight lines; on a photo it is worse: neighbouring pixels have nearly equal values, so a
// warp's 32 bytes (about 11 pixels) hit a few bins many times, and in a sky or a shadow the same bin
// takes thousands of updates in a row from every SM at once. Measured, it is 0.1% of the read ceiling
// (45-63 ms for 201 MB), slowest on the photo. Step 2 counts in shared memory first.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/histogram/*.cu --repeat 20; the same with --image
// puppy.jpg --size 8192x8192, and with --init pixels=randint(0,255)): built-in image: 44.92 ms, 4 GB/s = 0.1%
// of the read-only ceiling (4275 GB/s); photo 8192x8192: 63.05 ms, 3 GB/s = 0.1% of the read-only ceiling
// (4281 GB/s); uniform bytes: 51.74 ms, 4 GB/s = 0.1% of the read-only ceiling (4301 GB/s).
//
// kplay-task: name=histogram reference=host view=bars
// kplay-sizes: w,h default=7680x4320 cpu=320x200 test=1x1,3x5,33x17,257x3 bench=8192x8192
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
// kplay-torch: bins = torch.bincount(pixels.long(), minlength=256)
// kplay-cost: bytes=3*w*h ceiling=read-only

// bins arrives zeroed (init=zero) and every launch adds to it; n is 3*w*h, all channels counted together.
__global__ void histogram_global(const unsigned char* __restrict__ pixels, unsigned int* __restrict__ bins, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[pixels[i]], 1u);
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
