// kplay: kernel=scan_kogge_stone block=1024 grid=1
//
// Step 1 of the scan ladder: Kogge-Stone in one block (PMPP chapter 11.2). The inclusive prefix sum
// y[i] = x[0] + ... + x[i] looks sequential, but a section of 1024 elements is scanned in log2(1024) = 10
// steps: in step k every element adds the value 2^k places to its left, so after the step it holds the
// sum of the 2^(k+1) elements ending at it. Each step reads its neighbour before anyone overwrites it
// (the first barrier) and writes before the next step reads (the second). A block can only scan what
// its shared memory holds, so to be correct at any n this block walks the array in 1024-element
// sections and carries the running total of the sections before: y = carry + scanned section, then
// carry += the section's last element.
//
// Why it is slow: one block runs on one SM of the H200's 132, and it does everything in sequence, one
// section after another: load 4 KB, wait for DRAM (about a microsecond, nothing else in flight), 22
// barriers, store. At n = 64M that is 65536 sections: about 96 ms (6 GB/s, 0.1% of copy bandwidth).
// Kogge-Stone also does about 9 additions per element instead of 1 (work inefficiency, PMPP 11.3):
// step 2 fixes that, step 3 puts all SMs to work.
//
// The tolerance, rel: 2e-6 + 3e-9*sqrt(n), is the same for every step. All inputs are positive, so any
// order of additions has a relative error of at most (depth of its addition tree) * 2^-24 per element;
// the tree inside a tile or section is at most ~20 additions deep (20 * 6e-8 = 1.2e-6, the 2e-6 term).
// The carry chain is deep (one addition per section before: 65536 at 64M), but its roundings are
// independent and of both signs, so they add up like a random walk, ~2^-24 * sqrt(n/1024) relative for
// 1024-element sections: measured on the host with this step's exact order, at most 6.8e-6 over 64M
// elements (2.8e-6 with 8192-element tiles), against a tolerance of 2.7e-5 there. At the test and cpu
// sizes the tolerance is about 3e-6, so losing or doubling any one element (an error of ~1/i relative
// from i on) still fails. The reference (fp64, rounded to float) adds half an ulp. `work` is the
// ladder's scratch buffer, unused until step 3; every step takes it so that one host reference serves
// all. Its 2*cdiv(n,1024)+4 words hold step 3's tile totals and step 4's tile counter and 64-bit tile
// states for any tile of 1024 elements or more.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/scan/*.cu --repeat 20): 95.81 ms, 6 GB/s = 0.1% of
// the copy ceiling (4105 GB/s).
//
// kplay-task: name=scan reference=host view=series
// kplay-sizes: n default=67108864 cpu=131072 test=1,1000,1025,4099,70000 bench=67108864
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: y f32[n] out check=rel:2e-6+3e-9*sqrt(n)
// kplay-torch: y = torch.cumsum(x.double(), 0)
// kplay-buffer: work u32[2*cdiv(n,1024)+4] scratch init=zero
// kplay-cost: bytes=8*n ceiling=copy

namespace {
constexpr int SECTION = 1024;  // elements per section = threads in the block (block=1024 above)
}

__global__ void scan_kogge_stone(const float* __restrict__ x, float* __restrict__ y, unsigned* work, int n) {
    (void)work;
    __shared__ float xy[SECTION];
    const int t = threadIdx.x;
    float carry = 0.0f;  // sum of all sections before this one; every thread keeps the same copy
    for (int base = 0; base < n; base += SECTION) {
        const int i = base + t;
        xy[t] = i < n ? x[i] : 0.0f;  // past the end: zeros, which change no sum
        for (int stride = 1; stride < SECTION; stride *= 2) {
            __syncthreads();  // the previous step's (or the load's) writes are visible
            const float left = t >= stride ? xy[t - stride] : 0.0f;
            __syncthreads();  // everyone has read before anyone overwrites
            if (t >= stride) xy[t] += left;
        }
        __syncthreads();
        if (i < n) y[i] = carry + xy[t];
        carry += xy[SECTION - 1];  // the section's total
        __syncthreads();           // all have read xy before the next section overwrites it
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
