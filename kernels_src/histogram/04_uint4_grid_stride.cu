// kplay: kernel=histogram_uint4 args=pixels,bins,3*w*h launch=1d block=256 grid=sms*8
//
// Step 4 of the histogram ladder: coarsened, vectorised reads (PMPP chapter 9.5) around step 3's per-warp
// bins. Each thread loads 16 bytes with one uint4 load, and two of them (32 bytes) before it counts any,
// so a block keeps 8 KiB in flight, an SM with 8 blocks 64 KiB: what HBM3e needs to stay busy. The
// grid is sms*8 blocks (2048 threads per SM, all resident at once) walking the image in a grid-stride
// loop, so each block counts about n/1056 bytes and merges its bins once: 256 global atomics per block,
// a few hundred thousand for the whole image instead of one per 16 bytes. The image is 16-byte aligned
// (kplay's buffers are, as cudaMalloc's are); the last n % 16 bytes take a scalar path. The grid-stride
// loop assumes all sms*8 blocks are resident at once (otherwise a last wave of blocks runs alone, each
// with a full share of the work), so __launch_bounds__(256, 8) holds the kernel to 32 registers.
//
// What still limits it: the counting. Every byte is one shared-memory atomic, and they are step 3's
// atomics: the bank of bin b is b % 32, so random bytes put 3 or 4 lanes of a warp into the busiest
// bank. On a photo it helps that a lane now reads 16 consecutive bytes: at each of the 16 byte
// positions the lanes of one channel are 3 lanes, 16 pixels, apart instead of 1, so fewer of them
// share a value, but in flat regions (sky, shadow, a blown-out highlight) they still do and queue on
// one word. Step 5 gives each lane its own bank.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/histogram/*.cu --repeat 20; the same with --image
// puppy.jpg --size 8192x8192, and with --init pixels=randint(0,255)): built-in image: 0.0696 ms, 2894 GB/s =
// 67.7% of the read-only ceiling (4275 GB/s); photo 8192x8192: 0.0607 ms, 3319 GB/s = 77.5% of the read-only
// ceiling (4281 GB/s); uniform bytes: 0.0895 ms, 2249 GB/s = 52.3% of the read-only ceiling (4301 GB/s).
//
// kplay-task: name=histogram reference=host view=bars
// kplay-sizes: w,h default=7680x4320 cpu=320x200 test=1x1,3x5,33x17,257x3 bench=8192x8192
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
// kplay-torch: bins = torch.bincount(pixels.long(), minlength=256)
// kplay-cost: bytes=3*w*h ceiling=read-only

namespace {
constexpr int kBins = 256;
constexpr int kThreads = 256;  // the block size the annotation launches
constexpr int kWarps = kThreads / 32;

// The four bytes of one 32-bit word, each one atomic on this warp's bins.
__device__ __forceinline__ void count_word(unsigned int* mine, unsigned int word) {
    atomicAdd(&mine[word & 255u], 1u);
    atomicAdd(&mine[(word >> 8) & 255u], 1u);
    atomicAdd(&mine[(word >> 16) & 255u], 1u);
    atomicAdd(&mine[word >> 24], 1u);
}

__device__ __forceinline__ void count_uint4(unsigned int* mine, uint4 v) {
    count_word(mine, v.x);
    count_word(mine, v.y);
    count_word(mine, v.z);
    count_word(mine, v.w);
}
}  // namespace

__global__ void __launch_bounds__(kThreads, 8)  // 8 blocks per SM: sms*8 blocks all resident
histogram_uint4(const unsigned char* __restrict__ pixels, unsigned int* __restrict__ bins, int n) {
    __shared__ unsigned int local[kWarps][kBins];  // 8 KiB: warp w counts into local[w]
    unsigned int* flat = &local[0][0];
    for (int i = threadIdx.x; i < kWarps * kBins; i += kThreads) flat[i] = 0;
    __syncthreads();

    unsigned int* mine = local[threadIdx.x / 32];
    const uint4* vectors = reinterpret_cast<const uint4*>(pixels);
    const int vector_count = n / 16;
    const int stride = gridDim.x * kThreads;
    const int first = blockIdx.x * kThreads + threadIdx.x;
    int i = first;
    // Two loads issued before either is counted: 32 bytes in flight per thread.
    for (; i + stride < vector_count; i += 2 * stride) {
        const uint4 a = vectors[i];
        const uint4 b = vectors[i + stride];
        count_uint4(mine, a);
        count_uint4(mine, b);
    }
    if (i < vector_count) count_uint4(mine, vectors[i]);
    // The scalar tail: the last n % 16 bytes, one per thread of the first blocks.
    const int tail = vector_count * 16 + first;
    if (tail < n) atomicAdd(&mine[pixels[tail]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < kBins; b += kThreads) {
        unsigned int count = 0;
        for (int w = 0; w < kWarps; ++w) count += local[w][b];
        if (count != 0) atomicAdd(&bins[b], count);
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
