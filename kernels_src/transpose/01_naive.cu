// kplay: kernel=transpose_naive args=in,out,R,C launch=2d block=32,8
//
// Step 1 of the transpose ladder: one thread per element, straight from the definition. Thread (x, y)
// of the grid copies in[r][c] with c = x and r = y to out[c][r]. A warp is 32 consecutive x, so its
// reads are 32 consecutive floats of one row of in: one 128-byte line, perfectly coalesced (PMPP
// chapter 6.1). Its writes are the same 32 values going down a column of out: 32 addresses R floats
// apart, 32 different lines, each write using 4 bytes of a 32-byte sector. The memory system moves
// whole sectors, so unless L2 happens to merge the neighbouring warps' writes to a line before it is
// written back, each 4-byte store costs a 32-byte one, and the stores also take 32 separate trips
// through the load/store unit. Expect well under half the copy ceiling, worse as R grows. Step 2 makes
// both sides coalesced by turning the tile around in shared memory.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/transpose/*.cu --repeat 20): 1.032 ms, 520 GB/s =
// 12.7% of the copy ceiling (4103 GB/s).
//
// kplay-task: name=transpose reference=host view=matrix extent=C,R
// kplay-sizes: R,C default=8192x4096 cpu=300x200 test=1x1,3x1000,33x17,1000x3,1025x31 bench=16384x4096
// kplay-buffer: in f32[R*C] in shape=R,C init=uniform(-1,1)
// kplay-buffer: out f32[R*C] out shape=C,R check=exact
// kplay-torch: out = in_.view(R, C).t()
// kplay-cost: bytes=8*R*C ceiling=copy

// in is R rows of C floats, out is C rows of R floats; the grid covers x < C (columns), y < R (rows).
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int R, int C) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < R && c < C) out[static_cast<size_t>(c) * R + r] = in[static_cast<size_t>(r) * C + c];
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
