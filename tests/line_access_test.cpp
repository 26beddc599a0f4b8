// LineAccess: the ratios, the plain words and the JSON round trip of per-line memory counters.
#include <gtest/gtest.h>

#include "values/line_access.hpp"

namespace kplay {
namespace {

// A naive transpose's one line: a coalesced load and a store whose warp touches 32 sectors.
LineAccess naive_transpose_line() {
    LineAccess a;
    a.file = "transpose.cu";
    a.line = 27;
    a.global_loads = {100, 400, 400};
    a.global_stores = {100, 3200, 400};
    a.stall_samples = 812;
    return a;
}

TEST(LineAccess, RatiosAndWordsForAnUncoalescedStore) {
    const LineAccess a = naive_transpose_line();
    EXPECT_DOUBLE_EQ(a.global_stores.sectors_per_request(), 32);
    EXPECT_DOUBLE_EQ(a.global_stores.excess(), 8);
    EXPECT_EQ(describe_line_access(a), "loads 4 sectors/request, at the ideal; stores 32 sectors/request, 8x the ideal: uncoalesced");
}

TEST(LineAccess, WordsForBroadcastsAndSharedConflicts) {
    LineAccess broadcast;
    broadcast.global_loads = {10, 10, 10};
    EXPECT_EQ(describe_line_access(broadcast), "loads 1 sector/request, at the ideal (one sector for the whole warp: a broadcast)");
    LineAccess shared;
    shared.shared_loads = {8, 256, 8};
    shared.shared_stores = {8, 8, 8};
    EXPECT_EQ(describe_line_access(shared),
              "shared loads 32 wavefronts/request, 32x the ideal: 32-way bank conflicts; shared stores 1 wavefronts/request, conflict-free");
    EXPECT_DOUBLE_EQ(shared.shared_loads.excess(), 32);
    EXPECT_EQ(describe_line_access(LineAccess{}), "");
    EXPECT_DOUBLE_EQ(GlobalAccess{}.sectors_per_request(), 0);
    EXPECT_DOUBLE_EQ(SharedAccess{}.excess(), 0);
    LineAccess half;
    half.global_loads = {4, 10, 4};  // 2.5 sectors/request
    EXPECT_EQ(describe_line_access(half), "loads 2.5 sectors/request, 2.5x the ideal: uncoalesced");
}

TEST(LineAccess, ProfileRoundTripsThroughJson) {
    LineAccessProfile profile;
    profile.origin = LineAccessOrigin::emulated_device;
    profile.kernel = "_Z9transposePfPKfii";
    profile.lines.push_back(naive_transpose_line());
    LineAccess shared;
    shared.file = "transpose.cu", shared.line = 30, shared.shared_loads = {5, 160, 5};
    profile.lines.push_back(shared);
    const nlohmann::json j = profile;
    EXPECT_EQ(j.at("origin"), "emulated device");
    EXPECT_EQ(j.at("lines").at(0).at("global_stores").at("sectors"), 3200);
    EXPECT_EQ(j.get<LineAccessProfile>(), profile);
    ASSERT_NE(find_line(profile, "transpose.cu", 30), nullptr);
    EXPECT_EQ(find_line(profile, "transpose.cu", 30)->shared_loads.wavefronts, 160);
    EXPECT_EQ(find_line(profile, "other.cu", 30), nullptr);
}

TEST(LineAccess, UnknownOriginAndMissingKeysAreRefusedByName) {
    nlohmann::json j = LineAccessProfile{};
    j["origin"] = "oracle";
    try {
        (void)j.get<LineAccessProfile>();
        FAIL() << "an unknown origin was accepted";
    } catch (const nlohmann::json::exception& e) {
        EXPECT_NE(std::string(e.what()).find("unknown line access origin 'oracle'"), std::string::npos) << e.what();
    }
    nlohmann::json line = naive_transpose_line();
    line["global_stores"].erase("ideal_sectors");
    EXPECT_THROW((void)line.get<LineAccess>(), nlohmann::json::out_of_range);
}

}  // namespace
}  // namespace kplay
