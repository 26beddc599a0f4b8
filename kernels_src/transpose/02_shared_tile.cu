// kplay: kernel=transpose_tile args=in,out,R,C launch=2d block=32,32
//
// Step 2 of the transpose ladder: a 32x32 tile through shared memory (PMPP chapter 5.4's tiling, used
// for coalescing as in chapter 6.1). A block of 32x32 threads reads one tile of in row by row, each
// warp one row, 128 consecutive bytes, into tile[y][x]; after a barrier it writes the tile to out, again
// each warp one row of out, 32 consecutive floats, reading the tile by column: tile[x][y]. Both global
// sides are now coalesced: every 32-byte sector written is written whole.
//
// What it costs: the column read of shared memory. A warp's 32 lanes read tile[x][y] for x = 0..31, 32
// words 32 floats apart; shared memory has 32 banks (bank = word index % 32), so all 32 words sit in
// one bank and the read takes 32 passes instead of one. Every element is read from shared memory that
// way, so the tile is read 32 times slower than it is written. Each thread also has just one load in
// flight before the barrier. Step 3 removes the conflict with one column of padding.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/transpose/*.cu --repeat 20): 0.5231 ms, 1026 GB/s =
// 25.0% of the copy ceiling (4103 GB/s).
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
transpose_tile(const float* __restrict__ in, float* __restrict__ out, int R, int C) {
    __shared__ float tile[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;  // this block's tile: rows r0.., columns c0.. of in

    // Read: row r0 + ty of in, column c0 + tx.
    const int r = r0 + ty, c = c0 + tx;
    if (r < R && c < C) tile[ty][tx] = in[static_cast<size_t>(r) * C + c];
    __syncthreads();  // the whole tile is in shared memory before any thread reads another thread's element

    // Write: row c0 + ty of out (column c0 + ty of in), column r0 + tx of out (row r0 + tx of in).
    const int out_r = c0 + ty, out_c = r0 + tx;
    if (out_r < C && out_c < R) out[static_cast<size_t>(out_r) * R + out_c] = tile[tx][ty];
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
