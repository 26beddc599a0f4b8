// kplay: kernel=count_flags launch=1d block=64
// A plain store to a shared counter (line 13) and a read of it by another thread with no barrier
// between (line 14): the race is reported at exactly those lines, not the lines after them.
// kplay-task: name=counter_lines reference=host view=series
// kplay-sizes: n default=256 cpu=256 test=1,100
// kplay-buffer: flags i32[n] in init=randint(0,1)
// kplay-buffer: seen i32[n] out
__global__ void count_flags(const int* flags, int* seen, int n) {
    __shared__ int counter;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int mine = 0;
    if (threadIdx.x == 0)
        counter = 7;
    mine = counter;
    __syncthreads();
    if (i < n) seen[i] = flags[i] + mine - 7;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const int* flags, int* seen, int n) {
    for (int i = 0; i < n; ++i) seen[i] = flags[i];
}
#endif
