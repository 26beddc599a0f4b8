// A 128-bit content hash (XXH3) as hex, for cache keys and input identities.
#pragma once

#include <string>
#include <string_view>

namespace kplay {

class ContentHasher {
public:
    ContentHasher();
    ~ContentHasher();
    ContentHasher(const ContentHasher&) = delete;
    ContentHasher& operator=(const ContentHasher&) = delete;

    // Each field is length-prefixed, so ("ab","c") and ("a","bc") hash differently.
    ContentHasher& add(std::string_view field);
    std::string hex() const;  // 32 hex digits

private:
    void* state_;
};

std::string hash_hex(std::string_view data);
uint64_t hash64(std::string_view data);

}  // namespace kplay
