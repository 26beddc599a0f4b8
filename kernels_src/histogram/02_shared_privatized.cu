// kplay: kernel=histogram_shared args=pixels,bins,3*w*h launch=1d block=256 grid=cdiv(3*w*h,4096)
//
// Step 2 of the histogram ladder: privatisation (PMPP chapter 9.4). Each block counts its part of the
// image into its own 256 bins in shared memory and adds them to the global bins once at the end: one
// global atomic per bin per block instead of one per byte. A block of 256 threads takes 4096 bytes,
// 16 per thread; on each of the 16 rounds the block reads 256 consecutive bytes (thread t byte t), so
// every load instruction stays coalesced, as in step 1. Shared-memory atomics are done inside the SM,
// a few cycles each instead of a round trip to L2, and the global atomics fall 16-fold (256 per 4096
// bytes; bins a block never saw are skipped).
//
// What still limits it: every byte is still an atomic, now on shared memory, and shared memory has 32
// banks (bank = word index % 32). A warp's 32 atomics take as many passes as the most lanes that land
// in one bank, and lanes that land on the same word, the same bin, are applied one after the other. On
// random bytes that is 3 or 4 lanes in the busiest bank; on a photo a warp reads 32 neighbouring bytes
// (about 11 pixels, each channel every third byte), and in smooth regions the lanes of one channel
// often hold the same value: up to 11 lanes queue on one word. All 8 warps of the block also update
// the same 256 words. And the loads are one byte per thread per instruction, far too little in flight
// for HBM3e. Step 3 gives each warp its own bins.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/histogram/*.cu --repeat 20; the same with --image
// puppy.jpg --size 8192x8192, and with --init pixels=randint(0,255)): built-in image: 0.4015 ms, 501 GB/s =
// 11.7% of the read-only ceiling (4275 GB/s); photo 8192x8192: 0.3277 ms, 614 GB/s = 14.3% of the read-only
// ceiling (4281 GB/s); uniform bytes: 0.508 ms, 396 GB/s = 9.2% of the read-only ceiling (4301 GB/s).
//
// kplay-task: name=histogram reference=host view=bars
// kplay-sizes: w,h default=7680x4320 cpu=320x200 test=1x1,3x5,33x17,257x3 bench=8192x8192
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
// kplay-torch: bins = torch.bincount(pixels.long(), minlength=256)
// kplay-cost: bytes=3*w*h ceiling=read-only

namespace {
constexpr int kBins = 256;
constexpr int kThreads = 256;                       // the block size the annotation launches
constexpr int kBytesPerThread = 16;
constexpr int kChunk = kThreads * kBytesPerThread;  // bytes one block counts: the grid is cdiv(n, 4096)
}

__global__ void __launch_bounds__(kThreads)
histogram_shared(const unsigned char* __restrict__ pixels, unsigned int* __restrict__ bins, int n) {
    __shared__ unsigned int local[kBins];
    for (int b = threadIdx.x; b < kBins; b += kThreads) local[b] = 0;
    __syncthreads();  // every bin is zero before anyone counts

    const int start = blockIdx.x * kChunk;
    for (int k = 0; k < kBytesPerThread; ++k) {
        const int i = start + k * kThreads + threadIdx.x;
        if (i < n) atomicAdd(&local[pixels[i]], 1u);
    }
    __syncthreads();  // every count of this block is in shared memory

    for (int b = threadIdx.x; b < kBins; b += kThreads) {
        const unsigned int count = local[b];
        if (count != 0) atomicAdd(&bins[b], count);
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
