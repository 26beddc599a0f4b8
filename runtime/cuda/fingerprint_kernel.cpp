// The fingerprint kernel's source, its build and its launch.
#include "cuda/fingerprint_kernel.hpp"

#include <algorithm>
#include <utility>

#include "base/error.hpp"
#include "cuda/builtin_kernel.hpp"
#include "cuda/driver.hpp"

namespace kplay {

namespace {

// mix() is base/fingerprint.hpp's fingerprint_mix, word for word: a test holds the two to one answer.
// Each thread sums its words' mixes; a warp adds its 32 sums and one atomic per warp adds them up.
constexpr const char* kFingerprintSource = R"(
__device__ __forceinline__ unsigned long long mix(unsigned int word, unsigned long long index) {
    unsigned long long z = ((unsigned long long)word ^ (index * 0xD6E8FEB86659FD93ull)) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

extern "C" __global__ void kplay_fingerprint(const unsigned char* data, unsigned long long bytes, unsigned long long* sum) {
    const unsigned long long words = bytes / 4;
    const bool aligned = ((unsigned long long)data & 3) == 0;
    unsigned long long acc = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < words; i += stride) {
        const unsigned int w = aligned ? __ldg((const unsigned int*)data + i)
                                       : (unsigned int)data[4 * i] | (unsigned int)data[4 * i + 1] << 8 |
                                             (unsigned int)data[4 * i + 2] << 16 | (unsigned int)data[4 * i + 3] << 24;
        acc += mix(w, i);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        acc += mix((unsigned int)bytes, (bytes >> 32) ^ 0xFFFFFFFFFFull);
        const unsigned int tail = (unsigned int)(bytes % 4);
        if (tail) {
            unsigned int w = 0;
            for (unsigned int k = 0; k < tail; ++k) w |= (unsigned int)data[4 * words + k] << (8 * k);
            acc += mix(w, words);
        }
    }
    for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}
)";

constexpr unsigned kThreads = 256;

}  // namespace

FingerprintKernel::FingerprintKernel(const DeviceInfo& device) : sum_(sizeof(uint64_t)) {
    BuiltinKernel built = build_builtin_kernel(device, kFingerprintSource, "kplay_fingerprint.cu", "kplay_fingerprint");
    module_ = std::move(built.module);
    kernel_ = std::move(built.function);
}

uint64_t FingerprintKernel::fingerprint(const Stream& stream, CUdeviceptr address, size_t bytes) const {
    sum_.fill_words(0, stream);
    CUdeviceptr data = address, sum = sum_.get();
    unsigned long long count = bytes;
    void* args[] = {&data, &count, &sum};
    // Enough blocks to keep every SM streaming; the grid-stride loop takes the rest.
    const unsigned blocks = static_cast<unsigned>(std::clamp<size_t>((bytes / 4 + kThreads - 1) / kThreads, 1, 1024));
    KPLAY_CU(driver_api().cuLaunchKernel(kernel_.get(), blocks, 1, 1, kThreads, 1, 1, 0, stream.get(), args, nullptr));
    stream.synchronize();
    uint64_t result = 0;
    sum_.download(&result, sizeof result);
    return result;
}

}  // namespace kplay
