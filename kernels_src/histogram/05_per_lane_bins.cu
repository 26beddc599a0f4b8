// kplay: kernel=histogram_lane_bins args=pixels,bins,3*w*h launch=1d block=512 grid=sms*4
//
// Step 5 of the histogram ladder: one copy of the bins per lane, laid out so that no two lanes of a
// warp ever meet in shared memory. Step 4 read fast enough; its counting was the limit, because where
// a lane's atomic lands depends on the data: bin b lives in bank b % 32, so lanes with different bins
// collide in a bank (3 or 4 deep on random bytes) and lanes with the same bin, common on a photo,
// queue on one word. Here lane l counts into its own 256 bins, stored bin-major: the count of bin b for
// lane l is word b*32 + l, in bank l. Whatever the 32 bytes of a warp hold, its 32 atomics go to 32
// different banks and 32 different words: one pass each, and a smooth photo costs the same as noise.
// The 16 warps of a block share the 32 copies (32 KiB), so the updates stay atomic, but two of them
// only meet when the same lane of two warps counts the same byte value at the same moment.
//
// The reads are step 4's: two uint4 loads per thread in flight, a grid-stride loop over sms*4 blocks
// of 512 threads (2048 threads and 128 KiB of bins per SM; __launch_bounds__(512, 4) keeps it to 32
// registers so all four blocks are resident), the last n % 16 bytes scalar. At the end thread b sums
// bin b over the 32 lanes' copies, starting at lane b % 32 and wrapping, so the 32 threads of a warp
// read 32 different banks at every step instead of all reading bank 0, then bank 1, ...
//
// What is left per byte: extract it, form its address, one conflict-free shared atomic. At the
// read-only ceiling an SM must count about 16 bytes per clock, half a warp-wide atomic per clock;
// whether the shared-memory atomic unit keeps up is what the H200 measures.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/histogram/*.cu --repeat 20; the same with --image
// puppy.jpg --size 8192x8192, and with --init pixels=randint(0,255)): built-in image: 0.0517 ms, 3897 GB/s =
// 91.2% of the read-only ceiling (4275 GB/s); photo 8192x8192: 0.0513 ms, 3921 GB/s = 91.6% of the read-only
// ceiling (4281 GB/s); uniform bytes: 0.0523 ms, 3852 GB/s = 89.5% of the read-only ceiling (4301 GB/s).
//
// kplay-task: name=histogram reference=host view=bars
// kplay-sizes: w,h default=7680x4320 cpu=320x200 test=1x1,3x5,33x17,257x3 bench=8192x8192
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
// kplay-torch: bins = torch.bincount(pixels.long(), minlength=256)
// kplay-cost: bytes=3*w*h ceiling=read-only

namespace {
constexpr int kBins = 256;
constexpr int kLanes = 32;
constexpr int kThreads = 512;  // the block size the annotation launches

// lane_bins points at word `lane` of the table: bin b of this lane is lane_bins[b * 32].
__device__ __forceinline__ void count_word(unsigned int* lane_bins, unsigned int word) {
    atomicAdd(&lane_bins[(word & 255u) * kLanes], 1u);
    atomicAdd(&lane_bins[((word >> 8) & 255u) * kLanes], 1u);
    atomicAdd(&lane_bins[((word >> 16) & 255u) * kLanes], 1u);
    atomicAdd(&lane_bins[(word >> 24) * kLanes], 1u);
}

__device__ __forceinline__ void count_uint4(unsigned int* lane_bins, uint4 v) {
    count_word(lane_bins, v.x);
    count_word(lane_bins, v.y);
    count_word(lane_bins, v.z);
    count_word(lane_bins, v.w);
}
}  // namespace

__global__ void __launch_bounds__(kThreads, 4)  // 4 blocks per SM: sms*4 blocks all resident
histogram_lane_bins(const unsigned char* __restrict__ pixels, unsigned int* __restrict__ bins, int n) {
    __shared__ unsigned int table[kBins * kLanes];  // 32 KiB: table[b * 32 + l] = lane l's count of bin b
    for (int i = threadIdx.x; i < kBins * kLanes; i += kThreads) table[i] = 0;
    __syncthreads();

    const int lane = threadIdx.x % kLanes;
    unsigned int* lane_bins = table + lane;
    const uint4* vectors = reinterpret_cast<const uint4*>(pixels);
    const int vector_count = n / 16;
    const int stride = gridDim.x * kThreads;
    const int first = blockIdx.x * kThreads + threadIdx.x;
    int i = first;
    for (; i + stride < vector_count; i += 2 * stride) {
        const uint4 a = vectors[i];
        const uint4 b = vectors[i + stride];
        count_uint4(lane_bins, a);
        count_uint4(lane_bins, b);
    }
    if (i < vector_count) count_uint4(lane_bins, vectors[i]);
    const int tail = vector_count * 16 + first;
    if (tail < n) atomicAdd(&lane_bins[pixels[tail] * kLanes], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < kBins; b += kThreads) {
        const unsigned int* row = table + b * kLanes;
        unsigned int count = 0;
        for (int k = 0; k < kLanes; ++k) count += row[(k + b) % kLanes];  // bank (k + b) % 32
        if (count != 0) atomicAdd(&bins[b], count);
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
