// kplay: kernel=softmax_block_per_row block=256 grid=R
//
// Step 2 of the softmax ladder: one block per row, with block reductions in shared memory.
// Step 1 had one thread per row, so a warp's 32 loads hit 32 rows. Here the 256 threads of a block
// share one row: thread t reads columns t, t+256, t+512, ..., so a warp reads 32 consecutive floats,
// one 128-byte line per load (coalesced, PMPP chapter 6), and R blocks of 256 threads give the GPU
// 256 times more threads than step 1. Each pass now ends in a block reduction: every thread folds its
// strided columns into one value, writes it to shared memory, and a tree halves the active threads each
// round with a barrier between rounds (PMPP chapter 10) until red[0] holds the row's max (then its
// sum). The three passes still read the row three times. At 4096x1024 a row is 4 KB, so the second and
// third reads mostly hit L1/L2; at 1024x32768 a row is 128 KB and the 1024 rows in flight together
// (128 MB) overflow the 60 MB L2, so the rereads go to DRAM and the kernel moves about twice the bytes
// it has to. The trees also cost eight barriers per reduction with most threads idle.
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/softmax/*.cu --repeat 20, with and without
// --image/--init): 4096x1024: 0.0244 ms, 1377 GB/s = 33.5% of the copy ceiling (4116 GB/s); 1024x32768:
// 0.1575 ms, 1704 GB/s = 41.4% of the copy ceiling (4116 GB/s).
//
// kplay-task: name=softmax reference=host view=matrix
// kplay-sizes: R,C default=4096x1024 cpu=64x1000 test=1x1,3x1000,33x17,2x4099,2x40000 bench=4096x1024,1024x32768
// kplay-buffer: x f32[R*C] in init=normal(0,3)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
// kplay-torch: y = torch.softmax(x.view(R, C).double(), dim=1)
// kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy

#include "kplay.cuh"

namespace {
constexpr int kMaxThreads = 1024;  // red[] is sized for the largest block; the tree needs a power of two
}

__global__ void softmax_block_per_row(const float* __restrict__ x, float* __restrict__ y, int R, int C) {
    __shared__ float red[kMaxThreads];
    const int row = blockIdx.x;  // grid=R: one block per row
    const int tid = threadIdx.x, nt = blockDim.x;
    const float* xr = x + static_cast<size_t>(row) * C;
    float* yr = y + static_cast<size_t>(row) * C;

    // Pass 1: each thread's max over its strided columns, then a tree over the block.
    float m = -__int_as_float(0x7f800000);  // -infinity: the identity of max (NVRTC has no INFINITY macro)
    for (int c = tid; c < C; c += nt) m = fmaxf(m, xr[c]);
    red[tid] = m;
    __syncthreads();
    for (int stride = nt / 2; stride > 0; stride /= 2) {
        if (tid < stride) red[tid] = fmaxf(red[tid], red[tid + stride]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();  // everyone has read red[0] before pass 2 overwrites red[]

    // Pass 2: the sum of exp(x - m), reduced the same way.
    float s = 0.0f;
    for (int c = tid; c < C; c += nt) s += expf(xr[c] - m);
    red[tid] = s;
    __syncthreads();
    for (int stride = nt / 2; stride > 0; stride /= 2) {
        if (tid < stride) red[tid] += red[tid + stride];
        __syncthreads();
    }
    const float sum = red[0];

    // Pass 3: normalise, coalesced like the reads.
    for (int c = tid; c < C; c += nt) yr[c] = expf(xr[c] - m) / sum;
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
