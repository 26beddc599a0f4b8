// The reference cache keeps what the next save needs: the most recently used within its count and byte
// budget, so a save's test sizes and second seed do not push out the main size's reference.
#include "reference/reference_cache.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace kplay;

namespace {

ReferenceCache<std::vector<char>> cache_of(size_t entries, size_t bytes) {
    return ReferenceCache<std::vector<char>>(entries, bytes, [](const std::vector<char>& v) { return v.size(); });
}

}  // namespace

TEST(ReferenceCache, TheMostRecentlyUsedStay) {
    auto cache = cache_of(3, 1 << 20);
    auto get = [&](const std::string& key) { return cache.get(key, [] { return std::vector<char>(100, 'x'); }); };
    get("main");
    get("test 1");
    get("test 1000");
    EXPECT_TRUE(get("main").cached) << "the next save's main size";
    get("seed 2");  // a fourth set: the least recently used (test 1) goes, not the main size
    EXPECT_TRUE(get("main").cached);
    EXPECT_TRUE(get("test 1000").cached);
    EXPECT_FALSE(get("test 1").cached);
}

TEST(ReferenceCache, ASavesSetsAllFitInTheEnginesCache) {
    // The engine keeps 16: a save's main size, four test sizes and a second seed, with room to spare.
    auto cache = cache_of(16, 1 << 20);
    int computed = 0;
    for (int save = 0; save < 3; ++save)
        for (const char* set : {"main", "test 1", "test 1000", "test 1025", "test 4099", "seed 2"})
            cache.get(set, [&] {
                ++computed;
                return std::vector<char>(100);
            });
    EXPECT_EQ(computed, 6) << "each set computed once";
}

TEST(ReferenceCache, ABigReferencePushesOutOthersPastTheByteBudget) {
    auto cache = cache_of(16, 1000);
    const auto sized = [&](const std::string& key, size_t bytes) { return cache.get(key, [&] { return std::vector<char>(bytes); }); };
    sized("a", 400);
    sized("b", 400);
    sized("c", 400);  // 1200 > 1000: a goes
    EXPECT_TRUE(sized("b", 400).cached);
    EXPECT_TRUE(sized("c", 400).cached);
    EXPECT_FALSE(sized("a", 400).cached);
    EXPECT_TRUE(sized("huge", 5000).reference) << "one too big for the budget is still returned";
}
