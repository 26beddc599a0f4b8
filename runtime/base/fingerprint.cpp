// The host's fingerprint of a buffer.
#include "base/fingerprint.hpp"

#include <cstring>

namespace kplay {

uint64_t fingerprint_bytes(const unsigned char* data, size_t bytes) {
    uint64_t sum = fingerprint_mix(static_cast<uint32_t>(bytes), (bytes >> 32) ^ 0xFFFFFFFFFFull);
    const size_t words = bytes / 4;
    for (size_t i = 0; i < words; ++i) {
        uint32_t word;
        std::memcpy(&word, data + 4 * i, 4);  // little-endian, as the device stores it
        sum += fingerprint_mix(word, i);
    }
    if (const size_t tail = bytes % 4) {
        uint32_t word = 0;
        for (size_t k = 0; k < tail; ++k) word |= static_cast<uint32_t>(data[4 * words + k]) << (8 * k);
        sum += fingerprint_mix(word, words);
    }
    return sum;
}

}  // namespace kplay
