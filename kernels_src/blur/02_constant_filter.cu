// kplay: kernel=blur_constant launch=2d block=32,8 grid=cdiv(3*w,32),cdiv(h,8)
//
// Step 2 of the blur ladder: the filter in __constant__ memory (PMPP chapter 7.2).
// Step 1 loaded each of the 25 weights from global memory for every output byte. The weights never
// change during the kernel and every thread of a warp reads the same one at the same time: exactly
// the access that constant memory is built for. A __constant__ array lives in a 64 KB bank the host
// fills before the launch; it is cached per SM, and a read that all threads of a warp share is one
// broadcast. On recent GPUs the compiler goes further and feeds the weight straight from the constant
// bank into the multiply-add (IMAD R, R, c[bank][offset], R), so the weight loads disappear and 25
// pixel loads per output byte remain. What still limits it: each pixel byte is loaded by 25 threads
// (5 rows x 5 columns of windows) as separate one-byte loads, served by L1 but still one load
// instruction each, with a clamp per tap; the next step loads each byte once into shared memory.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/blur/*.cu --repeat 20): 0.6902 ms, 288 GB/s = 6.9%
// of the copy ceiling (4153 GB/s).
//
// kplay-task: name=blur reference=host view=image extent=3*w,h coverage=per-thread
// kplay-sizes: w,h default=7680x4320 cpu=160x100 test=1x1,3x5,33x17,257x3,336x7,16x1 bench=7680x4320
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
// kplay-cost: bytes=6*w*h ceiling=copy

#include "kplay.cuh"

// The 5x5 weights k[i] * k[j] with k = 1 4 6 4 1, in constant memory. (Initialised here, so no
// cudaMemcpyToSymbol is needed; a general convolution would copy its filter in before the launch.)
__constant__ int c_weights[25] = {
    1, 4,  6,  4,  1,
    4, 16, 24, 16, 4,
    6, 24, 36, 24, 6,
    4, 16, 24, 16, 4,
    1, 4,  6,  4,  1,
};

__global__ void blur_constant(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
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
            sum += c_weights[i * 5 + j] * in[(yy * w + xx) * 3 + ch];
        }
    }
    out[(y * w + x) * 3 + ch] = static_cast<unsigned char>((sum + 128) >> 8);
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
