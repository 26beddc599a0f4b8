// kplay: kernel=blur_naive launch=2d block=32,8 grid=cdiv(3*w,32),cdiv(h,8)
//
// Step 1 of the blur ladder: the naive 2D convolution (PMPP chapter 7), one thread per output byte.
// A 5x5 Gaussian blur replaces each channel of each pixel by a weighted mean of the 25 pixels around
// it, with weights k[i] k[j] for k = 1 4 6 4 1 (they total 256) and the image's edge pixels repeated
// outside it (clamp to edge). The image is interleaved RGB, so a row is 3w bytes and the same
// channel of the pixel dx to the right lies 3*dx bytes on. Each thread owns one output byte, loops
// over the window, and does the exact integer arithmetic of the reference: sum the 25 products in an
// int, then (sum + 128) >> 8. A warp covers 32 consecutive bytes of a row, so each of its loads is one
// 32-byte sector (coalesced). Like PMPP's first kernel, the filter is an array in global memory
// (g_weights is an ordinary writable __device__ array, so the compiler must load it), which makes 25
// pixel loads plus 25 weight loads per output byte. Nearly all of them hit L1 (every pixel is read by
// the 25 windows around it, and every thread reads the same weights), so the limit is the load
// instructions themselves: 50 per byte written, plus the index arithmetic and clamps of every tap.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/blur/*.cu --repeat 20): 0.8084 ms, 246 GB/s = 5.9%
// of the copy ceiling (4153 GB/s).
//
// kplay-task: name=blur reference=host view=image extent=3*w,h coverage=per-thread
// kplay-sizes: w,h default=7680x4320 cpu=160x100 test=1x1,3x5,33x17,257x3,336x7,16x1 bench=7680x4320
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
// kplay-cost: bytes=6*w*h ceiling=copy

#include "kplay.cuh"

// The 5x5 weights k[i] * k[j], row by row.
__device__ int g_weights[25] = {
    1, 4,  6,  4,  1,
    4, 16, 24, 16, 4,
    6, 24, 36, 24, 6,
    4, 16, 24, 16, 4,
    1, 4,  6,  4,  1,
};

__global__ void blur_naive(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
    const int bx = blockIdx.x * blockDim.x + threadIdx.x;  // byte column, 0 .. 3w-1
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (bx >= 3 * w || y >= h) return;
    const int x = bx / 3, ch = bx - 3 * x;  // the pixel and its channel

    int sum = 0;
#pragma unroll
    for (int i = 0; i < 5; ++i) {
        const int yy = min(max(y + i - 2, 0), h - 1);  // clamp to edge
#pragma unroll
        for (int j = 0; j < 5; ++j) {
            const int xx = min(max(x + j - 2, 0), w - 1);
            sum += g_weights[i * 5 + j] * in[(yy * w + xx) * 3 + ch];
        }
    }
    out[(y * w + x) * 3 + ch] = static_cast<unsigned char>((sum + 128) >> 8);
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
