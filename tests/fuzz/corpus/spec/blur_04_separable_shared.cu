blur
// kplay: kernel=blur_separable launch=2d block=96,4 grid=cdiv(3*w,96),cdiv(h,16)
//
// Step 4 of the blur ladder: separable, both passes in one kernel through shared memory.
// The 5x5 weights are an outer product, k[i] k[j], so the blur is a vertical 5-tap pass followed by a
// horizontal 5-tap pass: sum = sum_j k[j] (sum_i k[i] p[i][j]). That is 10 multiply-adds per output
// byte instead of 25 (plus the halo columns' vertical sums). Exactness: the vertical sums are kept in
// full as 16-bit integers (at most 16 x 255 = 4080) and rounded only once, after the horizontal
// pass, so the result is the same integer as the 2D sum, bit for bit, not a blur of a rounded blur.
// The two passes could be two launches with the vertical sums in a DRAM scratch buffer, but that
// buffer (u16 per channel) would be written and read back in full: 12 more bytes per pixel on top of
// the 6 the task must move, which caps two launches at a third of copy bandwidth. So both passes run
// in one kernel and the intermediate lives only in shared memory. The tile is step 3's (32 pixels x 16 rows of output,
// 108 x 20 input bytes with the halo): after loading it, the block computes the vertical sums of all
// 108 columns for the 16 output rows into a 16 x 108 array of u16, meets at a second barrier, and
// each thread then sums 5 of them horizontally per output byte. Shared-memory reads per output byte
// fall from 25 to about 11. What still limits it: one byte per load and per store, a barrier-bound
// tile that is refilled with a 41% halo, and integer work done one channel at a time; the next step
// works on 16 bytes at a time in registers.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/blur/*.cu --repeat 20): 0.4259 ms, 467 GB/s = 11.3%
// of the copy ceiling (4153 GB/s).
//
// kplay-task: name=blur reference=host view=image extent=3*w,h coverage=per-thread
// kplay-sizes: w,h default=7680x4320 cpu=160x100 test=1x1,3x5,33x17,257x3,336x7,16x1 bench=7680x4320
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
// kplay-cost: bytes=6*w*h ceiling=copy

#include "kplay.cuh"

namespace {
constexpr int kTileX = 96;            // output bytes per tile row: 32 pixels x 3 channels
constexpr int kTileY = 16;            // output rows per tile
constexpr int kInX = kTileX + 2 * 6;  // + 2 pixels of halo on each side
constexpr int kInY = kTileY + 2 * 2;  // + 2 rows above and below
}

__constant__ int c_taps[5] = {1, 4, 6, 4, 1};  // the 1D filter; the 2D one is its outer product

__device__ __forceinline__ unsigned char clamped(const unsigned char* in, int w, int yy, int b) {
    const int x = (b + 6) / 3 - 2;  // floor(b / 3) for b >= -6
    const int ch = b - 3 * x;
    return in[(yy * w + min(max(x, 0), w - 1)) * 3 + ch];
}

// blockDim must be 96 x 4.
__global__ void blur_separable(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
    __shared__ unsigned char tile[kInY][kInX];
    __shared__ unsigned short vsum[kTileY][kInX];  // vertical sums, full precision (<= 4080)
    const int b0 = blockIdx.x * kTileX;
    const int y0 = blockIdx.y * kTileY;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;

    for (int i = tid; i < kInY * kInX; i += nt) {
        const int r = i / kInX, c = i - r * kInX;
        const int yy = min(max(y0 + r - 2, 0), h - 1);
        tile[r][c] = clamped(in, w, yy, b0 + c - 6);
    }
    __syncthreads();

    // Vertical pass over every column of the tile, halo columns included (the horizontal pass needs
    // them).
    for (int i = tid; i < kTileY * kInX; i += nt) {
        const int r = i / kInX, c = i - r * kInX;
        int v = 0;
#pragma unroll
        for (int k = 0; k < 5; ++k) v += c_taps[k] * tile[r + k][c];
        vsum[r][c] = static_cast<unsigned short>(v);
    }
    __syncthreads();

    // Horizontal pass: the same channel of the neighbouring pixels is 3 bytes away.
    const int bx = b0 + threadIdx.x;
    if (bx >= 3 * w) return;
    for (int ty = threadIdx.y; ty < kTileY; ty += blockDim.y) {
        const int y = y0 + ty;
        if (y >= h) break;
        int sum = 0;
#pragma unroll
        for (int k = 0; k < 5; ++k) sum += c_taps[k] * vsum[ty][threadIdx.x + 3 * k];
        out[static_cast<size_t>(y) * 3 * w + bx] = static_cast<unsigned char>((sum + 128) >> 8);
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
