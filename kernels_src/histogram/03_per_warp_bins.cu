// kplay: kernel=histogram_warp_bins args=pixels,bins,3*w*h launch=1d block=256 grid=cdiv(3*w*h,4096)
//
// Step 3 of the histogram ladder: one copy of the bins per warp. Step 2's 8 warps all counted into the
// same 256 words; on a photo, where a few bins (a sky, a shadow) take most of a region's bytes, all 8
// warps of a block keep updating the same few words, and updates of one word, each a read-modify-write,
// wait for each other. Here each warp counts into its own 256 bins (8 KiB per block), so two warps
// never touch the same word, and a block sums its 8 copies in shared memory before its one global
// atomic per bin. The reads are step 2's: 4096 bytes per block, 256 consecutive bytes per round.
//
// What it does not fix: the conflicts inside one warp, which are the larger part. A warp's 32 lanes
// still read 32 neighbouring bytes, so on a photo the lanes of one channel (every third byte) still
// often carry one value and queue on one word; on any data the bank of bin b is b % 32, so random
// bytes still put 3 or 4 lanes into the busiest bank. How much the copies buy depends on how the SM's
// shared-memory atomic unit handles one word updated by several warps. Measured, the copies buy
// nothing (within 1% of step 2 on every input): the conflicts between warps were not what held step 2
// back; the one byte per load instruction and the conflicts inside a warp are. Step 4 feeds the
// counting with 16-byte loads.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/histogram/*.cu --repeat 20; the same with --image
// puppy.jpg --size 8192x8192, and with --init pixels=randint(0,255)): built-in image: 0.4034 ms, 499 GB/s =
// 11.7% of the read-only ceiling (4275 GB/s); photo 8192x8192: 0.3327 ms, 605 GB/s = 14.1% of the read-only
// ceiling (4281 GB/s); uniform bytes: 0.5082 ms, 396 GB/s = 9.2% of the read-only ceiling (4301 GB/s).
//
// kplay-task: name=histogram reference=host view=bars
// kplay-sizes: w,h default=7680x4320 cpu=320x200 test=1x1,3x5,33x17,257x3 bench=8192x8192
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
// kplay-torch: bins = torch.bincount(pixels.long(), minlength=256)
// kplay-cost: bytes=3*w*h ceiling=read-only

namespace {
constexpr int kBins = 256;
constexpr int kThreads = 256;                 // the block size the annotation launches
constexpr int kWarps = kThreads / 32;
constexpr int kBytesPerThread = 16;
constexpr int kChunk = kThreads * kBytesPerThread;  // bytes one block counts: the grid is cdiv(n, 4096)
}

__global__ void __launch_bounds__(kThreads)
histogram_warp_bins(const unsigned char* __restrict__ pixels, unsigned int* __restrict__ bins, int n) {
    __shared__ unsigned int local[kWarps][kBins];  // 8 KiB: warp w counts into local[w]
    unsigned int* flat = &local[0][0];
    for (int i = threadIdx.x; i < kWarps * kBins; i += kThreads) flat[i] = 0;
    __syncthreads();

    unsigned int* mine = local[threadIdx.x / 32];
    const int start = blockIdx.x * kChunk;
    for (int k = 0; k < kBytesPerThread; ++k) {
        const int i = start + k * kThreads + threadIdx.x;
        if (i < n) atomicAdd(&mine[pixels[i]], 1u);
    }
    __syncthreads();  // every warp's counts are in shared memory

    // Thread b sums bin b over the 8 copies: at each step a warp reads 32 consecutive words of one
    // copy, 32 different banks.
    for (int b = threadIdx.x; b < kBins; b += kThreads) {
        unsigned int count = 0;
        for (int w = 0; w < kWarps; ++w) count += local[w][b];
        if (count != 0) atomicAdd(&bins[b], count);
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
