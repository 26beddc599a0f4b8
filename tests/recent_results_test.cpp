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

void keep(RecentResults& recent, const std::string& key, RunReport report) { recent.remember(key, report); }

}  // namespace

TEST(RecentResults, KeepsGoodResultsNewestFirst) {
    RecentResults recent;
    EXPECT_EQ(recent.find("a"), nullptr);
    keep(recent, "a", result("first"));
    keep(recent, "a", result("second"));
    keep(recent, "b", result("broken", false));
    ASSERT_NE(recent.find("a"), nullptr);
    EXPECT_EQ(recent.find("a")->kernel, "second");
    EXPECT_EQ(recent.find("b"), nullptr) << "a failure is run again";
}

TEST(RecentResults, KeepsAFew) {
    RecentResults recent;
    for (size_t i = 0; i <= RecentResults::kRecent; ++i)
        keep(recent, std::to_string(i), result("k" + std::to_string(i)));
    EXPECT_EQ(recent.find("0"), nullptr);
    EXPECT_NE(recent.find("1"), nullptr);
    EXPECT_NE(recent.find(std::to_string(RecentResults::kRecent)), nullptr);
}

TEST(RecentResults, EachIsChangedInPlace) {
    RecentResults recent;
    keep(recent, "a", result("a"));
    keep(recent, "b", result("b"));
    recent.update_each([](RunReport& report) { report.verdict = "measured"; });
    EXPECT_EQ(recent.find("a")->verdict, "measured");
    EXPECT_EQ(recent.find("b")->verdict, "measured");
}

TEST(RecentResults, AnInputTheScreenCanFillIsNotCopied) {
    RecentResults recent;
    RunReport photo = result("blur");
    photo.view.input.assign(3 * 64 * 48, 7);
    photo.view.input_identity = "photo.png 64x48";
    photo.view.output.assign(64 * 48, 9);
    recent.remember("a", photo);
    EXPECT_EQ(photo.view.input.size(), size_t{3 * 64 * 48}) << "the caller's report is handed back whole";
    ASSERT_NE(recent.find("a"), nullptr);
    EXPECT_TRUE(recent.find("a")->view.input.empty());
    EXPECT_EQ(recent.find("a")->view.output, photo.view.output);

    RunReport unnamed = photo;  // an input without an identity could not be filled in: it is kept
    unnamed.view.input_identity.clear();
    recent.remember("b", unnamed);
    EXPECT_EQ(recent.find("b")->view.input.size(), size_t{3 * 64 * 48});
}
