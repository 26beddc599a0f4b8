// kplay: kernel=hash_fill args=out,n,seed,tag_bool<true>{}
// kplay-struct: seed first=1234 second=7
// A std::pair<uint64_t, uint64_t> seed passed by value (filled by a kplay-struct line, fields first and
// second) and an empty tag argument, as dropout kernels of LLM code take them.
// kplay-task: name=hash_fill reference=host view=series
// kplay-sizes: n default=4096 cpu=1000 test=1,300
// kplay-buffer: out u32[n] out
#include <cstdint>
#include <utility>

template <bool B>
struct tag_bool {};

__host__ __device__ inline uint32_t mix(uint64_t key, uint64_t offset, int i) {
    uint64_t z = key + 0x9E3779B97F4A7C15ull * (offset + static_cast<uint64_t>(i) + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<uint32_t>(z ^ (z >> 31));
}

__global__ void hash_fill(uint32_t* out, int n, std::pair<uint64_t, uint64_t> seed, tag_bool<true>) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mix(seed.first, seed.second, i);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(uint32_t* out, int n, std::pair<uint64_t, uint64_t> seed, tag_bool<true>) {
    for (int i = 0; i < n; ++i) out[i] = mix(seed.first, seed.second, i);
}
#endif
