// kplay: kernel=frontier_sizes launch=1d block=256
//
// Race 8: a plain store against atomics. A breadth-first search's block queue counts the vertices of
// the next frontier in a shared counter: thread 0 resets it with a plain `count = 0`, while the other
// threads already atomicAdd to it, with no barrier between. Atomics never race with atomics, but a plain
// store racing with them is a data race in CUDA's memory model: an increment that lands before the
// reset is lost. It often goes unseen (warp 0, with thread 0, tends to run first), which is why the
// emulated device names it as its own kind, a plain access against atomic ones, at every thread order;
// with `--order reverse` the other threads add first and the reset loses their counts.
// The fix: a __syncthreads() between the reset and the additions.
//
// kplay-task: name=frontier_sizes reference=host view=series
// kplay-sizes: n default=1048576 cpu=65536 test=1,300,1000
// kplay-buffer: level i32[n] in init=randint(0,3)
// kplay-buffer: sizes i32[cdiv(n,256)] out init=zero check=exact
// kplay-cost: bytes=4*n ceiling=copy
__global__ void frontier_sizes(const int* __restrict__ level, int* __restrict__ sizes, int n) {
    __shared__ int count;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) count = 0;
    if (i < n && level[i] == 1) atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0) sizes[blockIdx.x] = count;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* level, int* sizes, int n) {
    for (int b = 0; b < (n + 255) / 256; ++b) {
        int count = 0;
        for (int i = b * 256; i < n && i < (b + 1) * 256; ++i) count += level[i] == 1;
        sizes[b] = count;
    }
}
#endif
