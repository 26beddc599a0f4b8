// kplay: kernel=transpose_rows args=in,out,R,C launch=2d block=32,8 grid=cdiv(C,32),cdiv(R,32)
//
// Step 4 of the transpose ladder: a 32x8 block moves a 32x32 padded tile, four elements per thread.
// Thread (x, y) reads rows y, y+8, y+16, y+24 of the tile: four independent loads issued back to back
// before the barrier, so each thread has 16 bytes in flight instead of 4, and with 256-thread blocks
// (4.2 KiB of shared memory each) 8 blocks fit on an SM, their barriers staggered, so while one block
// waits others are loading or storing. The index arithmetic of a tile is shared by four elements. The
// padding is step 3's: both shared-memory passes are conflict-free. The grid still has one block per
// tile, cdiv(C,32) x cdiv(R,32), and every element is guarded, so any R and C work.
//
// What still limits it: 16 bytes per thread, 32 KiB per SM in flight, is about what HBM3e needs to
// stay busy and no more; the load phase and the store phase of a block still alternate around one
// barrier. Step 5 gives each thread a 64x64 tile's sixteen elements.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/transpose/*.cu --repeat 20): 0.1479 ms, 3630 GB/s =
// 88.5% of the copy ceiling (4103 GB/s).
//
// kplay-task: name=transpose reference=host view=matrix extent=C,R
// kplay-sizes: R,C default=8192x4096 cpu=300x200 test=1x1,3x1000,33x17,1000x3,1025x31 bench=16384x4096
// kplay-buffer: in f32[R*C] in shape=R,C init=uniform(-1,1)
// kplay-buffer: out f32[R*C] out shape=C,R check=exact
// kplay-torch: out = in_.view(R, C).t()
// kplay-cost: bytes=8*R*C ceiling=copy

namespace {
constexpr int kTile = 32;
constexpr int kRows = 8;  // the block is kTile x kRows threads; each moves kTile / kRows = 4 elements
}

__global__ void __launch_bounds__(kTile * kRows, 8)  // 8 blocks per SM: at most 32 registers
transpose_rows(const float* __restrict__ in, float* __restrict__ out, int R, int C) {
    __shared__ float tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;

    const int c = c0 + tx;
#pragma unroll
    for (int k = 0; k < kTile; k += kRows) {
        const int r = r0 + ty + k;
        if (r < R && c < C) tile[ty + k][tx] = in[static_cast<size_t>(r) * C + c];
    }
    __syncthreads();

    const int out_c = r0 + tx;  // out's column is in's row
#pragma unroll
    for (int k = 0; k < kTile; k += kRows) {
        const int out_r = c0 + ty + k;
        if (out_r < C && out_c < R) out[static_cast<size_t>(out_r) * R + out_c] = tile[tx][ty + k];
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
