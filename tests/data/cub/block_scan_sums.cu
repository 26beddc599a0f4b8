// Per-block inclusive prefix sums with CUB's BlockScan (256 threads, one item each): the kernel of the
// compile-after-an-edit benchmark for CCCL headers (docs/BENCHMARKS.md) and of the compile server's GPU
// test, a task that runs and is checked like any other.
// kplay-sizes: n default=1048576 cpu=100000 test=1,1000,1025 bench=16777216
// kplay-buffer: x i32[n] in init=randint(-100,100)
// kplay-buffer: y i32[n] out
// kplay-cost: bytes=8*n ceiling=copy
// kplay: kernel=block_sums args=x,y,n block=256
#include <cub/block/block_scan.cuh>

__global__ void block_sums(const int* x, int* y, int n) {
    using Scan = cub::BlockScan<int, 256>;
    __shared__ typename Scan::TempStorage storage;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int value = i < n ? x[i] : 0;
    Scan(storage).InclusiveSum(value, value);
    if (i < n) y[i] = value;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* x, int* y, int n) {
    for (int start = 0; start < n; start += 256) {
        int sum = 0;
        for (int i = start; i < n && i < start + 256; ++i) y[i] = sum += x[i];
    }
}
#endif
