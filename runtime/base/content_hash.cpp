// XXH3 from Debian's libxxhash, inlined so no shared library is needed at run time.
#include "base/content_hash.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdio>

namespace kplay {

ContentHasher::ContentHasher() : state_(XXH3_createState()) { XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_)); }

ContentHasher::~ContentHasher() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

ContentHasher& ContentHasher::add(std::string_view field) {
    const uint64_t size = field.size();
    auto* state = static_cast<XXH3_state_t*>(state_);
    XXH3_128bits_update(state, &size, sizeof size);
    XXH3_128bits_update(state, field.data(), field.size());
    return *this;
}

std::string ContentHasher::hex() const {
    const XXH128_hash_t hash = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(hash.high64),
                  static_cast<unsigned long long>(hash.low64));
    return text;
}

std::string hash_hex(std::string_view data) { return ContentHasher().add(data).hex(); }

uint64_t hash64(std::string_view data) { return XXH3_64bits(data.data(), data.size()); }

}  // namespace kplay
