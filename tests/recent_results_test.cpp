// The recent results: good ones only, the newest first, a few.
#include "session/recent_results.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

RunReport result(const std::string& kernel, bool good = true) {
    RunReport report;
    report.stage = good ? Stage::done : Stage::compile;
    report.kernel = kernel;
    if (!good) report.error = "does not compile";
    return report;
}

}  // namespace

TEST(RecentResults, KeepsGoodResultsNewestFirst) {
    RecentResults recent;
    EXPECT_EQ(recent.find("a"), nullptr);
    recent.remember("a", result("first"));
    recent.remember("a", result("second"));
    recent.remember("b", result("broken", false));
    ASSERT_NE(recent.find("a"), nullptr);
    EXPECT_EQ(recent.find("a")->kernel, "second");
    EXPECT_EQ(recent.find("b"), nullptr) << "a failure is run again";
}

TEST(RecentResults, KeepsAFew) {
    RecentResults recent;
    for (size_t i = 0; i <= RecentResults::kRecent; ++i)
        recent.remember(std::to_string(i), result("k" + std::to_string(i)));
    EXPECT_EQ(recent.find("0"), nullptr);
    EXPECT_NE(recent.find("1"), nullptr);
    EXPECT_NE(recent.find(std::to_string(RecentResults::kRecent)), nullptr);
}

TEST(RecentResults, EachIsChangedInPlace) {
    RecentResults recent;
    recent.remember("a", result("a"));
    recent.remember("b", result("b"));
    recent.update_each([](RunReport& report) { report.verdict = "measured"; });
    EXPECT_EQ(recent.find("a")->verdict, "measured");
    EXPECT_EQ(recent.find("b")->verdict, "measured");
}
