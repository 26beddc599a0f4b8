// Lecture 5's lesson on the emulated device: memory requests per source line, counted by the tracked
// launch. The naive transpose loads coalesced and stores a column (8x the sectors it needs); the shared
// tile makes the store coalesced and moves the cost to a 32-way bank conflict on the tile's column
// read; one column of padding removes it.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

LineAccessProfile profile_of(const std::string& step) {
    Engine& engine = test::scratch_engine();
    RunRequest request;
    request.kernel_path = test::kernels_dir() / "transpose" / step;
    request.emulate = true;
    request.inputs.size = "256x256";
    request.check_test_sizes = false;
    const RunReport report = engine.run(request);
    EXPECT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.line_access.size(), 1u);
    return report.line_access.empty() ? LineAccessProfile{} : report.line_access.front();
}

const LineAccess& line(const LineAccessProfile& profile, int number) {
    static const LineAccess none;
    for (const LineAccess& l : profile.lines)
        if (l.line == number) return l;
    ADD_FAILURE() << "no counts for line " << number;
    return none;
}

TEST(EmulatedLineAccess, TheNaiveTransposeStoresAColumn) {
    const LineAccessProfile profile = profile_of("01_naive.cu");
    EXPECT_EQ(profile.origin, LineAccessOrigin::emulated_device);
    const LineAccess& copy = line(profile, 27);  // out[c * R + r] = in[r * C + c]
    EXPECT_GT(copy.global_loads.requests, 0);
    EXPECT_DOUBLE_EQ(copy.global_loads.excess(), 1.0);           // 32 consecutive floats: 4 sectors
    EXPECT_DOUBLE_EQ(copy.global_loads.sectors_per_request(), 4.0);
    EXPECT_DOUBLE_EQ(copy.global_stores.sectors_per_request(), 32.0);  // 32 rows apart: a sector each
    EXPECT_DOUBLE_EQ(copy.global_stores.excess(), 8.0);
}

TEST(EmulatedLineAccess, TheSharedTileConflictsAndThePaddingDoesNot) {
    const LineAccessProfile tiled = profile_of("02_shared_tile.cu");
    const LineAccess& read_in = line(tiled, 37);
    EXPECT_DOUBLE_EQ(read_in.global_loads.excess(), 1.0);
    EXPECT_DOUBLE_EQ(read_in.shared_stores.excess(), 1.0);  // tile[ty][tx]: a row, conflict-free
    const LineAccess& write_out = line(tiled, 42);
    EXPECT_DOUBLE_EQ(write_out.global_stores.excess(), 1.0);       // the store is coalesced now
    EXPECT_DOUBLE_EQ(write_out.shared_loads.excess(), 32.0);       // tile[tx][ty]: a column, one bank
    const LineAccessProfile padded = profile_of("03_padded_tile.cu");
    EXPECT_DOUBLE_EQ(line(padded, 41).shared_loads.excess(), 1.0);
    EXPECT_DOUBLE_EQ(line(padded, 41).global_stores.excess(), 1.0);
}

}  // namespace
}  // namespace kplay
