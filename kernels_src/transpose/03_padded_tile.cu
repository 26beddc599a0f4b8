// kplay: kernel=transpose_padded args=in,out,R,C launch=2d block=32,32
//
// Step 3 of the transpose ladder: the same 32x32 tile with one column of padding, tile[32][33]. Step 2's
// column read hit one bank 32 times because a row was exactly 32 words, a multiple of the bank count.
// With 33 words per row, element [x][y] is word 33x + y, bank (x + y) % 32: the 32 lanes of a warp
// (x = 0..31) now read 32 different banks, and the row-wise write of the tile, [y][x] with x = 0..31,
// still does too. One pass each way; 132 bytes of shared memory per tile buy it (PMPP chapter 5; the
// classic fix of NVIDIA's transpose example).
//
// What still limits it: parallelism in flight. Each thread loads one float, then waits at the barrier
// until all 1024 threads' loads have come back, then stores one float. Only 2 blocks of 1024 threads fit
// on an SM, so an SM has at most 8 KiB of loads outstanding, and while a block waits at its barrier
// half the SM's threads issue nothing. Step 4 moves the same tile with a quarter of the threads, each
// carrying four elements.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/transpose/*.cu --repeat 20): 0.3034 ms, 1770 GB/s =
// 43.1% of the copy ceiling (4103 GB/s).
//
// kplay-task: name=transpose reference=host view=matrix extent=C,R
// kplay-sizes: R,C default=8192x4096 cpu=300x200 test=1x1,3x1000,33x17,1000x3,1025x31 bench=16384x4096
// kplay-buffer: in f32[R*C] in shape=R,C init=uniform(-1,1)
// kplay-buffer: out f32[R*C] out shape=C,R check=exact
// kplay-torch: out = in_.view(R, C).t()
// kplay-cost: bytes=8*R*C ceiling=copy

namespace {
constexpr int kTile = 32;  // the block is kTile x kTile threads, one element each
}

__global__ void __launch_bounds__(kTile * kTile)
transpose_padded(const float* __restrict__ in, float* __restrict__ out, int R, int C) {
    __shared__ float tile[kTile][kTile + 1];  // +1: column reads fall into 32 different banks
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;

    const int r = r0 + ty, c = c0 + tx;
    if (r < R && c < C) tile[ty][tx] = in[static_cast<size_t>(r) * C + c];
    __syncthreads();

    const int out_r = c0 + ty, out_c = r0 + tx;
    if (out_r < C && out_c < R) out[static_cast<size_t>(out_r) * R + out_c] = tile[tx][ty];
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
