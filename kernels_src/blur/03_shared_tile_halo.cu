// kplay: kernel=blur_shared_tile launch=2d block=96,4 grid=cdiv(3*w,96),cdiv(h,16)
//
// Step 3 of the blur ladder: a shared-memory input tile with a 2-pixel halo (PMPP chapter 7.4-7.5).
// In step 2 every input byte was loaded by the 25 threads whose windows cover it. Here a block first
// copies the input its outputs need into shared memory, each byte once, and then computes all 25
// taps from there. The block's output tile is 32 pixels (96 bytes, a whole number of pixels so the
// channels line up) by 16 rows; its input tile adds the halo, 2 pixels (6 bytes) left and right and 2
// rows above and below: 108 x 20 bytes. The clamp to edge happens once, while the tile is loaded, so
// the compute loop has no bounds checks at all. 384 threads (96 x 4) load the 2160 tile bytes in
// coalesced row-major order, meet at one barrier, and each computes 4 output bytes (rows ty, ty+4,
// ty+8, ty+12). Reading the tile, a warp's 32 threads touch 32 consecutive bytes (8 words in 8
// banks), so there are no bank conflicts. Global loads drop from 25 to 1.41 per output byte (the halo
// is 41% extra). What still limits it: 25 shared-memory loads and 25 multiply-adds per output byte,
// for a filter that is separable (the next step), and one-byte loads and stores throughout.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/blur/*.cu --repeat 20): 0.4304 ms, 462 GB/s = 11.1%
// of the copy ceiling (4153 GB/s).
//
// kplay-task: name=blur reference=host view=image extent=3*w,h coverage=per-thread
// kplay-sizes: w,h default=7680x4320 cpu=160x100 test=1x1,3x5,33x17,257x3,336x7,16x1 bench=7680x4320
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
// kplay-cost: bytes=6*w*h ceiling=copy

#include "kplay.cuh"

namespace {
constexpr int kTileX = 96;               // output bytes per tile row: 32 pixels x 3 channels
constexpr int kTileY = 16;               // output rows per tile
constexpr int kInX = kTileX + 2 * 6;     // + 2 pixels of halo on each side
constexpr int kInY = kTileY + 2 * 2;     // + 2 rows above and below
}

__constant__ int c_weights[25] = {
    1, 4,  6,  4,  1,
    4, 16, 24, 16, 4,
    6, 24, 36, 24, 6,
    4, 16, 24, 16, 4,
    1, 4,  6,  4,  1,
};

// The byte of row `yy` at byte column `b` of the halo-extended row (b may be -6 .. 3w+5): the pixel is
// clamped to the image, the channel kept.
__device__ __forceinline__ unsigned char clamped(const unsigned char* in, int w, int yy, int b) {
    const int x = (b + 6) / 3 - 2;  // floor(b / 3) for b >= -6
    const int ch = b - 3 * x;
    return in[(yy * w + min(max(x, 0), w - 1)) * 3 + ch];
}

// blockDim must be 96 x 4 (the tile's width, and the row step of the compute loop).
__global__ void blur_shared_tile(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
    __shared__ unsigned char tile[kInY][kInX];
    const int b0 = blockIdx.x * kTileX;  // first output byte column of the tile (a pixel boundary)
    const int y0 = blockIdx.y * kTileY;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;

    // Load the input tile, halo included, with the clamp to edge. Flat index -> (row, column), so
    // consecutive threads load consecutive bytes of a row.
    for (int i = tid; i < kInY * kInX; i += nt) {
        const int r = i / kInX, c = i - r * kInX;
        const int yy = min(max(y0 + r - 2, 0), h - 1);
        tile[r][c] = clamped(in, w, yy, b0 + c - 6);
    }
    __syncthreads();

    const int bx = b0 + threadIdx.x;
    if (bx >= 3 * w) return;  // past the right edge (after the barrier, so no thread misses it)
    const int x = bx / 3, ch = bx - 3 * x;
    for (int ty = threadIdx.y; ty < kTileY; ty += blockDim.y) {
        const int y = y0 + ty;
        if (y >= h) break;
        int sum = 0;
#pragma unroll
        for (int i = 0; i < 5; ++i)
#pragma unroll
            for (int j = 0; j < 5; ++j) sum += c_weights[i * 5 + j] * tile[ty + i][threadIdx.x + 3 * j];
        out[(y * w + x) * 3 + ch] = static_cast<unsigned char>((sum + 128) >> 8);
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
