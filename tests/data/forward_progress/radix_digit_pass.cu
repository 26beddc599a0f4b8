// One pass of a radix sort in one launch, its blocks waiting for the grid's last block: every block
// counts the low 4-bit digit of its chunk of keys and publishes the counts; the last block waits until
// every block has, turns all counts into each (digit, block)'s first place (digit-major, so the pass is
// stable) and raises a flag; every block waits for the flag, then writes its keys to their places.
// Blocks waiting for a later block work on a GPU only while every block is resident at once: the grid
// is two blocks per SM, each taking a chunk of the keys. The state counts arrivals and the flag's
// generation, and the last block clears the count, so the kernel can be launched again and again.
// kplay-sizes: n default=4194304 cpu=100000 test=1,1000,1025
// kplay-buffer: keys u32[n] in init=randint(0,1000000)
// kplay-buffer: out u32[n] out check=exact
// kplay-buffer: counts u32[16384] scratch
// kplay-buffer: places u32[16384] scratch
// kplay-buffer: state u32[2] scratch init=zero
// kplay-cost: bytes=8*n ceiling=copy
// kplay: block=256 grid=2*sms

constexpr unsigned kDigits = 16;

__global__ void digit_pass(const unsigned* keys, unsigned* out, unsigned* counts, unsigned* places, unsigned* state, int n) {
    __shared__ unsigned tile[256];
    __shared__ unsigned mine[kDigits];  // this block's count of each digit, then where its next key of it goes
    const int chunk = (n + gridDim.x - 1) / gridDim.x;
    const int begin = min(n, static_cast<int>(blockIdx.x) * chunk), end = min(n, begin + chunk);
    if (threadIdx.x < kDigits) mine[threadIdx.x] = 0;
    __syncthreads();
    for (int i = begin + threadIdx.x; i < end; i += blockDim.x) atomicAdd(&mine[keys[i] % kDigits], 1u);
    __syncthreads();
    if (threadIdx.x < kDigits) counts[threadIdx.x * gridDim.x + blockIdx.x] = mine[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned generation = atomicAdd(&state[1], 0u);  // read before arriving: the last block moves it on after
        __threadfence();
        atomicAdd(&state[0], 1u);
        if (blockIdx.x == gridDim.x - 1) {
            while (atomicAdd(&state[0], 0u) < gridDim.x) {}  // every block has published its counts
            unsigned sum = 0;
            for (unsigned j = 0; j < kDigits * gridDim.x; ++j) {
                places[j] = sum;
                sum += static_cast<volatile unsigned*>(counts)[j];  // published before its block arrived
            }
            atomicExch(&state[0], 0u);
            __threadfence();
            atomicAdd(&state[1], 1u);
        }
        while (atomicAdd(&state[1], 0u) == generation) {}  // the last block has placed every digit
    }
    __syncthreads();
    if (threadIdx.x < kDigits) mine[threadIdx.x] = static_cast<volatile unsigned*>(places)[threadIdx.x * gridDim.x + blockIdx.x];
    __syncthreads();
    for (int first = begin; first < end; first += blockDim.x) {
        const int i = first + threadIdx.x;
        const unsigned key = i < end ? keys[i] : 0;
        tile[threadIdx.x] = key;
        __syncthreads();
        if (i < end) {
            unsigned before = 0;  // keys of this digit earlier in the tile
            for (unsigned j = 0; j < threadIdx.x; ++j) before += tile[j] % kDigits == key % kDigits;
            out[mine[key % kDigits] + before] = key;
        }
        __syncthreads();
        if (threadIdx.x < kDigits) {
            unsigned here = 0;
            for (int j = 0; j < static_cast<int>(blockDim.x) && first + j < end; ++j) here += tile[j] % kDigits == threadIdx.x;
            mine[threadIdx.x] += here;
        }
        __syncthreads();
    }
}

#ifdef KPLAY_REFERENCE
#include <algorithm>
#include <vector>

void kplay_reference(const unsigned* keys, unsigned* out, unsigned*, unsigned*, unsigned*, int n) {
    std::vector<unsigned> sorted(keys, keys + n);
    std::stable_sort(sorted.begin(), sorted.end(), [](unsigned a, unsigned b) { return a % 16 < b % 16; });
    std::copy(sorted.begin(), sorted.end(), out);
}
#endif
