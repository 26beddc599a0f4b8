// kplay: kernel=chained_sums launch=1d block=256
//
// Race 9, fixed: the handoff of 09 with __threadfence() between the total and the flag. Each block
// sums its part, waits until the block before it has published the running total, adds its own and
// publishes the new total: it writes `running[b]`, then raises `ready[b]` with an atomic. Nothing orders
// the write of the total before the flag for another block: without __threadfence() between them, the
// next block may see the flag and still read an old total (the GPU's memory system may deliver the two
// stores in either order). The emulated device tracks global memory between blocks and reports a race
// between blocks on `running`, at every thread order. compute-sanitizer's racecheck does not look at
// global memory. (Blocks take their turn from a ticket, so a block only ever waits for one that started
// before it, as a decoupled look-back scan does.)
// Here __threadfence() orders the write before the flag, and the reader's atomic load of the flag then
// sees the total: the emulated device reports no race.
//
// kplay-task: name=chained_sums reference=host view=series
// kplay-sizes: n default=1048576 cpu=16384 test=1,300,1000
// kplay-buffer: x i32[n] in init=randint(0,9)
// kplay-buffer: running i32[cdiv(n,256)] out init=zero check=exact
// kplay-buffer: ready i32[cdiv(n,256)] scratch init=zero
// kplay-buffer: ticket i32[1] scratch init=zero
// kplay-cost: bytes=4*n ceiling=copy
__global__ void chained_sums(const int* __restrict__ x, int* running, int* ready, int* ticket, int n) {
    __shared__ int part, b;
    if (threadIdx.x == 0) {
        part = 0;
        b = atomicAdd(ticket, 1);  // this block's turn: the blocks before it have all started
    }
    __syncthreads();
    const int i = b * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&part, x[i]);
    __syncthreads();
    if (threadIdx.x == 0) {
        int before = 0;
        if (b > 0) {
            while (atomicAdd(&ready[b - 1], 0) == 0) {}  // wait for the block before
            before = running[b - 1];
        }
        running[b] = before + part;
        __threadfence();           // the total reaches memory before the flag does
        atomicExch(&ready[b], 1);  // publish
    }
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* x, int* running, int* ready, int* ticket, int n) {
    (void)ready;
    (void)ticket;
    int total = 0;
    for (int b = 0; b < (n + 255) / 256; ++b) {
        for (int i = b * 256; i < n && i < (b + 1) * 256; ++i) total += x[i];
        running[b] = total;
    }
}
#endif
