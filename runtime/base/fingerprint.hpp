// A 64-bit fingerprint of a buffer's bytes that a GPU computes in one pass just as the host does: each
// 4-byte word is mixed with its position and the mixes are summed mod 2^64, so the order in which
// threads add them does not matter. The runner compares an input's fingerprint before and after the
// launches, and a timed launch's output with the checked one's, without reading either back.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kplay {

// The mix of word `index` (the last word of a buffer whose size is not a multiple of 4 is zero-padded,
// little-endian). The GPU's kernel (cuda/fingerprint_kernel.cpp) spells the same arithmetic.
constexpr uint64_t fingerprint_mix(uint32_t word, uint64_t index) {
    uint64_t z = (static_cast<uint64_t>(word) ^ (index * 0xD6E8FEB86659FD93ull)) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The sum of the words' mixes, plus the size's own mix (so zeros of two lengths differ).
uint64_t fingerprint_bytes(const unsigned char* data, size_t bytes);

}  // namespace kplay
