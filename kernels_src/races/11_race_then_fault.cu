// kplay: kernel=reverse_tiles launch=1d block=128 smem=4*block_x requires=block_x==128
//
// Race 11: a race that ends in a fault. Each block reverses one tile of `src`: thread 0 works out how
// many elements the tile has (like the co-ranks of PMPP's tiled merge, a bound the block shares) and
// keeps it in the first word of shared memory; after a barrier every thread reads it, and then the
// threads load the tile over the same shared memory, with no barrier between the read of the bound and
// the load that overwrites it. A thread that reads the bound after thread 0 has stored its element there
// takes that element for the bound, and later reads past the end of the tile. On a GPU the warp usually
// reads the bound in step before any lane stores, and the kernel seems to work (racecheck still sees the
// hazard); on the emulated device the fault comes, and the race that caused it is named before it:
// "A race came first, the likely cause: shared array ... Then thread (1,0,0) of block (0,0,0) read ...
// past the end of 'dynamic shared memory'".
// The fix: a __syncthreads() between reading the bound and loading the tile.
//
// kplay-task: name=reverse_tiles reference=host view=series
// kplay-sizes: n default=1048576 cpu=16384 test=1,300,1000
// kplay-buffer: src i32[n] in init=randint(129,160)
// kplay-buffer: out i32[n] out
// kplay-cost: bytes=8*n ceiling=copy
__global__ void reverse_tiles(const int* __restrict__ src, int* __restrict__ out, int n) {
    extern __shared__ int tile[];  // tile[0]: the tile's length, then the tile itself over it
    const int first = blockIdx.x * blockDim.x, t = threadIdx.x;
    if (t == 0) tile[0] = min(n - first, (int)blockDim.x);
    __syncthreads();
    const int count = tile[0];
    if (t < count) tile[t] = src[first + t];  // no barrier since the read of tile[0]
    __syncthreads();
    if (t < count) out[first + t] = tile[count - 1 - t];
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* src, int* out, int n) {
    for (int first = 0; first < n; first += 128) {
        const int count = n - first < 128 ? n - first : 128;
        for (int t = 0; t < count; ++t) out[first + t] = src[first + count - 1 - t];
    }
}
#endif
