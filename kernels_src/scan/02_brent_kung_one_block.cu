// kplay: kernel=scan_brent_kung block=1024 grid=1
//
// Step 2 of the scan ladder: Brent-Kung, the work-efficient scan (PMPP chapter 11.4). Kogge-Stone in
// step 1 did about 9 additions per element; Brent-Kung does about 2. An up-sweep builds a reduction tree in
// place (after level k, every element whose index ends in k+1 one-bits holds the sum of the 2^(k+1)
// elements ending at it), then a down-sweep pushes those partial sums back down the tree to the elements
// that still miss them. Each of the 1024 threads owns two elements, so a section is 2048 elements and is
// scanned in 2*log2(2048) - 1 = 21 levels with one barrier each. Loads and stores stay coalesced
// (element t and t + 1024). As in step 1, one block walks the array section by section and carries the
// running total, so every n is right.
//
// What it fixes: half as many sections (32768 at n = 64M) for about the same number of barriers per
// section, and a fifth of the additions: roughly twice step 1's speed. What still limits it is the same
// as step 1: one SM of 132 works alone and waits for DRAM once per section with nothing else in flight,
// so it stays under 1% of copy bandwidth. The upper levels of the trees also leave most threads idle and
// their strided indices hit the same shared-memory banks (up to 16-way conflicts); that would matter in a
// kernel that was not waiting on everything else. Step 3 puts all SMs to work.
//
// Measured (H200, 2026-12-01, kplay-cli bench kernels_src/scan/*.cu --repeat 20): 93.72 ms, 6 GB/s = 0.1% of
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
constexpr int THREADS = 1024;          // block=1024 above
constexpr int SECTION = 2 * THREADS;   // two elements per thread
}

__global__ void scan_brent_kung(const float* __restrict__ x, float* __restrict__ y, unsigned* work, int n) {
    (void)work;  // the ladder's scratch buffer, unused until step 3
    __shared__ float xy[SECTION];
    const int t = threadIdx.x;
    float carry = 0.0f;  // sum of all sections before this one; every thread keeps the same copy
    for (int base = 0; base < n; base += SECTION) {
        const int i = base + t, j = base + t + THREADS;
        xy[t] = i < n ? x[i] : 0.0f;  // past the end: zeros, which change no sum
        xy[t + THREADS] = j < n ? x[j] : 0.0f;
        // Up-sweep (reduction tree): at stride s, thread t adds into the element at (t+1)*2s - 1 the
        // partial sum s places to its left. Fewer threads work at each level: 1024, 512, ..., 1.
        for (int stride = 1; stride <= THREADS; stride *= 2) {
            __syncthreads();
            const int index = (t + 1) * 2 * stride - 1;
            if (index < SECTION) xy[index] += xy[index - stride];
        }
        // Down-sweep: each tree node's sum goes to the element halfway to the next node on its right,
        // which so far only holds the sum of its own subtree. Strides 512, 256, ..., 1.
        for (int stride = SECTION / 4; stride > 0; stride /= 2) {
            __syncthreads();
            const int index = (t + 1) * 2 * stride - 1;
            if (index + stride < SECTION) xy[index + stride] += xy[index];
        }
        __syncthreads();
        if (i < n) y[i] = carry + xy[t];
        if (j < n) y[j] = carry + xy[t + THREADS];
        carry += xy[SECTION - 1];  // the section's total
        __syncthreads();           // all have read xy before the next section overwrites it
    }
}

#ifdef KPLAY_REFERENCE
#include "reference.h"  // the ladder's one host reference
#endif
