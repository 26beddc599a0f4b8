// kplay: kernel=transpose_tile64 args=in,out,R,C launch=2d block=32,8 grid=cdiv(C,64),cdiv(R,64)
//
// Step 5 of the transpose ladder: a 64x64 tile per 32x8 block, sixteen elements per thread. Thread
// (x, y) reads columns x and x + 32 of rows y, y+8, ..., y+56: sixteen loads issued before the barrier,
// 64 bytes in flight per thread and 128 KiB per SM (8 blocks of 256 threads, 16.6 KiB of shared memory
// each), four times step 4, so HBM3e sees enough outstanding requests even while some blocks are at
// their barriers. Each warp still reads and writes 32 consecutive floats per instruction. The tile is
// padded to 65 columns: element [i][j] is word 65i + j, bank (i + j) % 32, so both the row-wise write
// (j = x or x + 32 across the warp) and the column-wise read (i = x or x + 32) touch 32 different banks.
// Edge tiles guard every element, so any R and C work.
//
// What is left: each block still loads its whole tile, waits, then stores it; a ceiling-level kernel
// would keep loads of the next tile in flight during the stores. A quarter as many blocks as step 4
// means the last wave is coarser on small matrices.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/transpose/*.cu --repeat 20): 0.1353 ms, 3968 GB/s =
// 96.7% of the copy ceiling (4103 GB/s).
//
// kplay-task: name=transpose reference=host view=matrix extent=C,R
// kplay-sizes: R,C default=8192x4096 cpu=300x200 test=1x1,3x1000,33x17,1000x3,1025x31 bench=16384x4096
// kplay-buffer: in f32[R*C] in shape=R,C init=uniform(-1,1)
// kplay-buffer: out f32[R*C] out shape=C,R check=exact
// kplay-torch: out = in_.view(R, C).t()
// kplay-cost: bytes=8*R*C ceiling=copy

namespace {
constexpr int kTile = 64;
constexpr int kWidth = 32;  // threads across: each covers columns x and x + 32
constexpr int kRows = 8;    // threads down: each covers rows y, y + 8, ..., y + 56
}

__global__ void __launch_bounds__(kWidth * kRows, 8)  // 8 blocks per SM: at most 32 registers
transpose_tile64(const float* __restrict__ in, float* __restrict__ out, int R, int C) {
    __shared__ float tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;

#pragma unroll
    for (int k = 0; k < kTile; k += kRows) {
        const int r = r0 + ty + k;
#pragma unroll
        for (int j = 0; j < kTile; j += kWidth) {
            const int c = c0 + tx + j;
            if (r < R && c < C) tile[ty + k][tx + j] = in[static_cast<size_t>(r) * C + c];
        }
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < kTile; k += kRows) {
        const int out_r = c0 + ty + k;  // out's row is in's column
#pragma unroll
        for (int j = 0; j < kTile; j += kWidth) {
            const int out_c = r0 + tx + j;  // out's column is in's row
            if (out_r < C && out_c < R) out[static_cast<size_t>(out_r) * R + out_c] = tile[tx + j][ty + k];
        }
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
