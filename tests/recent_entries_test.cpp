// The most-recently-used store the resident buffers, the references and the inputs keep theirs in: a
// found entry becomes the newest, the oldest go past the count or byte budget, the newest always stays.
#include "base/recent_entries.hpp"

#include <gtest/gtest.h>

#include <memory>

using namespace kplay;

TEST(RecentEntries, TheLeastRecentlyUsedGoFirstPastTheCount) {
    RecentEntries<int> entries(2, 1000);
    entries.put("a", 1, 10);
    entries.put("b", 2, 10);
    ASSERT_NE(entries.find("a"), nullptr);  // a is now the most recent: b goes next
    entries.put("c", 3, 10);
    EXPECT_EQ(entries.find("b"), nullptr);
    EXPECT_EQ(*entries.find("a"), 1);
    EXPECT_EQ(*entries.find("c"), 3);
    EXPECT_EQ(entries.size(), 2u);
}

TEST(RecentEntries, TheOldestGoPastTheBytesButTheNewestStays) {
    RecentEntries<int> entries(10, 100);
    entries.put("a", 1, 60);
    entries.put("b", 2, 30);
    EXPECT_EQ(entries.bytes(), 90u);
    entries.put("c", 3, 20);  // 110 > 100: a goes
    EXPECT_EQ(entries.find("a"), nullptr);
    EXPECT_EQ(entries.bytes(), 50u);
    entries.put("huge", 4, 500);  // over the whole budget: the others go, it stays
    EXPECT_EQ(entries.size(), 1u);
    EXPECT_EQ(*entries.find("huge"), 4);
}

TEST(RecentEntries, APutReplacesItsKeyAndTakeMovesOut) {
    RecentEntries<std::unique_ptr<int>> entries(4, 1000);
    entries.put("a", std::make_unique<int>(1), 10);
    entries.put("a", std::make_unique<int>(2), 20);
    EXPECT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries.bytes(), 20u);
    std::optional<std::unique_ptr<int>> taken = entries.take("a");
    ASSERT_TRUE(taken && *taken);
    EXPECT_EQ(**taken, 2);
    EXPECT_EQ(entries.size(), 0u);
    EXPECT_FALSE(entries.take("a"));
}
