// The access tracker's rules on hand-made access sequences: what races, what is ordered, and that the
// reported example does not depend on the order the accesses came in.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "emu/access_tracker.hpp"
#include "values/race_report.hpp"

namespace kplay {
namespace {

constexpr unsigned kRead = 0, kWrite = KPLAY_ACCESS_WRITE, kAtomic = KPLAY_ACCESS_ATOMIC;

// A launch of `blocks` blocks of `threads` threads over one global float buffer of 64 elements and one
// shared float array of 64.
struct Fixture {
    std::vector<float> global = std::vector<float>(64);
    std::vector<float> shared = std::vector<float>(64);
    AccessTracker tracker;
    Fixture(unsigned blocks, unsigned threads)
        : tracker({{reinterpret_cast<uintptr_t>(global.data()), reinterpret_cast<uintptr_t>(global.data() + 64), "out", 4, RaceSpace::global}},
                  {blocks, 1, 1}, {threads, 1, 1}) {
        tracker.set_shared_regions({{reinterpret_cast<uintptr_t>(shared.data()), reinterpret_cast<uintptr_t>(shared.data() + 64), "tile", 1,
                                     RaceSpace::shared}});
    }
    void at(unsigned thread, const float* where, unsigned flags, uintptr_t site, unsigned size = 4) {
        tracker.access({thread, 0, 0}, reinterpret_cast<uintptr_t>(where), size, flags, site);
    }
};

TEST(AccessTracker, AReadOfAnotherThreadsWriteWithNoBarrierBetweenRaces) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    f.at(1, &f.shared[1], kWrite, 100);
    f.at(0, &f.shared[1], kRead, 200);
    const auto races = f.tracker.races();
    ASSERT_EQ(races.size(), 1u);
    EXPECT_EQ(races[0].space, RaceSpace::shared);
    EXPECT_EQ(races[0].element, 1u);
    EXPECT_EQ(races[0].first_thread, 0u);  // the lower thread first, whichever ran first
    EXPECT_EQ(races[0].second_thread, 1u);
    EXPECT_EQ(f.tracker.sites()[races[0].first_site], 200u);
    EXPECT_FALSE(races[0].first_flags & KPLAY_ACCESS_WRITE);
    EXPECT_TRUE(races[0].second_flags & KPLAY_ACCESS_WRITE);
}

TEST(AccessTracker, ABarrierBetweenOrdersThem) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    f.at(1, &f.shared[1], kWrite, 100);
    f.tracker.barrier();
    f.at(0, &f.shared[1], kRead, 200);
    f.at(2, &f.shared[1], kRead, 200);  // two readers after the barrier: reads never conflict
    EXPECT_TRUE(f.tracker.races().empty());
}

TEST(AccessTracker, AWriteAfterAnotherThreadsReadRacesAsWell) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    f.at(0, &f.shared[2], kRead, 200);
    f.at(3, &f.shared[2], kRead, 200);
    f.at(2, &f.shared[2], kWrite, 100);
    const auto races = f.tracker.races();
    ASSERT_EQ(races.size(), 1u);  // both readers conflict with the write: one pair of sites, counted twice
    EXPECT_EQ(races[0].conflicts, 2u);
    EXPECT_EQ(races[0].first_thread, 0u);
    EXPECT_EQ(races[0].second_thread, 2u);
}

TEST(AccessTracker, LanesOfOneWarpAreOrderedOnlyByASyncwarpOfBoth) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    f.at(16, &f.shared[16], kWrite, 100);
    f.at(0, &f.shared[16], kRead, 200);
    auto races = f.tracker.races();
    ASSERT_EQ(races.size(), 1u);
    EXPECT_TRUE(f.tracker.same_warp(races[0].first_thread, races[0].second_thread));
    EXPECT_FALSE(races[0].across_warps);

    Fixture g(1, 64);
    g.tracker.begin_block({0, 0, 0});
    g.at(16, &g.shared[16], kWrite, 100);
    g.tracker.warp_synced(0, 0xffffffffu);  // __syncwarp()
    g.at(0, &g.shared[16], kRead, 200);
    EXPECT_TRUE(g.tracker.races().empty());

    // A __syncwarp of another warp orders nothing between threads of different warps.
    Fixture h(1, 64);
    h.tracker.begin_block({0, 0, 0});
    h.at(40, &h.shared[8], kWrite, 100);
    h.tracker.warp_synced(1, 0xffffffffu);
    h.tracker.warp_synced(0, 0xffffffffu);
    h.at(0, &h.shared[8], kRead, 200);
    ASSERT_EQ(h.tracker.races().size(), 1u);
    EXPECT_TRUE(h.tracker.races()[0].across_warps);
}

// One store instruction of a warp whose lanes hit one address: one write succeeds, by CUDA's rules.
// The same two lanes storing from two different lines race; so do two warps from the one line.
TEST(AccessTracker, LanesOfOneWarpStoringFromOneInstructionDoNotRace) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    for (unsigned lane = 0; lane < 32; ++lane) f.at(lane, &f.shared[0], kWrite, 100);
    EXPECT_TRUE(f.tracker.races().empty());
    f.at(3, &f.shared[0], kWrite, 200);
    ASSERT_EQ(f.tracker.races().size(), 1u);
    Fixture g(1, 64);
    g.tracker.begin_block({0, 0, 0});
    g.at(0, &g.shared[0], kWrite, 100);
    g.at(32, &g.shared[0], kWrite, 100);
    ASSERT_EQ(g.tracker.races().size(), 1u);
    EXPECT_TRUE(g.tracker.races()[0].across_warps);
}

TEST(AccessTracker, ASyncwarpOfSomeLanesOrdersOnlyThose) {
    Fixture f(1, 32);
    f.tracker.begin_block({0, 0, 0});
    f.at(3, &f.shared[3], kWrite, 100);
    f.at(20, &f.shared[20], kWrite, 100);
    f.tracker.warp_synced(0, 0x0000ffffu);  // __syncwarp(0xffff): lanes 0-15
    f.at(1, &f.shared[3], kRead, 200);      // lane 3 wrote it before a sync both passed
    EXPECT_TRUE(f.tracker.races().empty());
    f.at(1, &f.shared[20], kRead, 201);     // lane 20 was not in it
    ASSERT_EQ(f.tracker.races().size(), 1u);
    EXPECT_EQ(f.tracker.races()[0].element, 20u);
}

TEST(AccessTracker, ASyncwarpBeforeTheWriteOrdersNothing) {
    Fixture f(1, 32);
    f.tracker.begin_block({0, 0, 0});
    f.tracker.warp_synced(0, 0xffffffffu);
    f.at(5, &f.shared[5], kWrite, 100);
    f.at(6, &f.shared[5], kRead, 200);
    EXPECT_EQ(f.tracker.races().size(), 1u);
}

TEST(AccessTracker, AtomicsDoNotRaceWithAtomics) {
    Fixture f(2, 32);
    f.tracker.begin_block({0, 0, 0});
    f.at(0, &f.global[0], kWrite | kAtomic, 100);
    f.at(1, &f.global[0], kWrite | kAtomic, 100);
    f.tracker.end_block({0, 0, 0});
    f.tracker.begin_block({1, 0, 0});
    f.at(0, &f.global[0], kWrite | kAtomic, 100);
    EXPECT_TRUE(f.tracker.races().empty());
    f.at(1, &f.global[0], kRead, 300);  // a plain read of what this block's thread 0 updated, no barrier between
    EXPECT_EQ(f.tracker.races().size(), 1u);
}

TEST(AccessTracker, TwoBlocksTouchingOneGlobalElementRace) {
    Fixture f(2, 32);
    f.tracker.begin_block({0, 0, 0});
    f.at(5, &f.global[7], kWrite, 100);
    f.tracker.end_block({0, 0, 0});
    f.tracker.begin_block({1, 0, 0});
    f.at(6, &f.global[3], kRead, 200);
    f.at(6, &f.global[3], kWrite, 100);  // the same thread's own read: fine
    EXPECT_TRUE(f.tracker.races().empty());
    f.at(6, &f.global[7], kRead, 200);  // block 0's write, read by block 1 with nothing between
    const auto races = f.tracker.races();
    ASSERT_EQ(races.size(), 1u);
    EXPECT_EQ(races[0].space, RaceSpace::global);
    EXPECT_EQ(races[0].element, 7u);
    kplay_emu_dim block{}, thread{};
    f.tracker.decode(races[0].first_thread, block, thread);
    EXPECT_EQ(block.x, 0u);
    EXPECT_EQ(thread.x, 5u);
    f.tracker.decode(races[0].second_thread, block, thread);
    EXPECT_EQ(block.x, 1u);
    EXPECT_EQ(thread.x, 6u);
}

// Block 0 writes data[0..3] and raises a flag; block 1 waits for the flag, then reads the data.
// The flag is a buffer's element, or a `__device__` variable no region holds.
std::vector<RawRace> handoff(bool fence, unsigned fence_flags, bool flag_atomic, bool barrier_first, bool flag_outside = false) {
    Fixture f(2, 32);
    static float device_variable = 0;
    float* flag = flag_outside ? &device_variable : &f.global[63];
    f.tracker.begin_block({0, 0, 0});
    for (unsigned t = 0; t < 4; ++t) f.at(t, &f.global[t], kWrite, 100);
    if (barrier_first) f.tracker.barrier();  // every thread's write, then thread 0 alone goes on
    if (fence) f.at(0, nullptr, fence_flags, 0, 0);
    f.at(0, flag, kWrite | (flag_atomic ? kAtomic : static_cast<unsigned>(KPLAY_ACCESS_VOLATILE)), 101);
    f.tracker.end_block({0, 0, 0});
    f.tracker.begin_block({1, 0, 0});
    f.at(0, flag, KPLAY_ACCESS_VOLATILE, 200);  // while (*(volatile int*)flag == 0);
    f.tracker.barrier();
    for (unsigned t = 0; t < 4; ++t) f.at(t, &f.global[t], kRead, 201);
    return f.tracker.races();
}

TEST(AccessTracker, AFenceThenAFlagHandsDataToAnotherBlock) {
    EXPECT_FALSE(handoff(false, 0, true, false).empty());  // no fence: the data races with its reader
    EXPECT_TRUE(handoff(true, KPLAY_ACCESS_FENCE, true, true).empty());
    EXPECT_TRUE(handoff(true, KPLAY_ACCESS_FENCE, false, true).empty());  // a volatile flag store does it too
    EXPECT_TRUE(handoff(true, KPLAY_ACCESS_FENCE, true, true, true).empty());  // a __device__ counter does it too
    EXPECT_FALSE(handoff(false, 0, true, false, true).empty());
    // Without the barrier, only thread 0's own write is released: threads 1-3's still race with the reader.
    const auto partly = handoff(true, KPLAY_ACCESS_FENCE, true, false);
    ASSERT_FALSE(partly.empty());
    EXPECT_EQ(partly.front().element, 1u);
    // __threadfence_block() orders memory for the block only: another block may still see the flag first.
    EXPECT_FALSE(handoff(true, KPLAY_ACCESS_FENCE | KPLAY_ACCESS_BLOCK_SCOPE, true, true).empty());
}

TEST(AccessTracker, APlainAccessAgainstAtomicsRacesAndSaysSo) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    f.at(0, &f.shared[0], kWrite, 100);            // count = 0;
    f.at(33, &f.shared[0], kWrite | kAtomic, 200);  // atomicAdd(&count, 1), no barrier between
    const auto races = f.tracker.races();
    ASSERT_EQ(races.size(), 1u);
    EXPECT_TRUE(races[0].first_flags & kAtomic ? !(races[0].second_flags & kAtomic) : (races[0].second_flags & kAtomic));
    // Lanes of the writer's warp add first; another warp's add still races with the reset, not only with them.
    Fixture g(1, 64);
    g.tracker.begin_block({0, 0, 0});
    g.at(0, &g.shared[0], kWrite, 100);
    g.at(1, &g.shared[0], kWrite | kAtomic, 200);
    g.at(33, &g.shared[0], kWrite | kAtomic, 200);
    ASSERT_EQ(g.tracker.races().size(), 1u);
    EXPECT_EQ(g.tracker.races()[0].conflicts, 2u);
    EXPECT_TRUE(g.tracker.races()[0].across_warps);
}

TEST(AccessTracker, VolatileFlagsDoNotRaceButVolatileLanesOfOneWarpDo) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    f.at(0, &f.shared[0], kWrite | KPLAY_ACCESS_VOLATILE, 100);
    f.at(40, &f.shared[0], KPLAY_ACCESS_VOLATILE, 200);  // another warp polls it
    EXPECT_TRUE(f.tracker.races().empty());
    f.at(5, &f.shared[0], KPLAY_ACCESS_VOLATILE, 300);  // a lane of the writer's warp, no __syncwarp
    EXPECT_EQ(f.tracker.races().size(), 1u);
}

TEST(AccessTracker, AParkedBlockKeepsItsOwnSharedMemory) {
    Fixture f(2, 32);
    f.tracker.begin_block({0, 0, 0});
    f.at(1, &f.shared[0], kWrite, 100);
    f.tracker.begin_block({1, 0, 0});  // block 0 waits; block 1 starts on the same worker
    f.at(2, &f.shared[0], kWrite, 100);
    f.tracker.resume_block({0, 0, 0});
    f.at(3, &f.shared[0], kRead, 200);  // block 0's thread 3 reads its own block's element: races with thread 1 only
    const auto races = f.tracker.races();
    ASSERT_EQ(races.size(), 1u);
    kplay_emu_dim block{}, thread{};
    f.tracker.decode(races[0].first_thread, block, thread);
    EXPECT_EQ(block.x, 0u);
    EXPECT_EQ(thread.x, 1u);
}

TEST(AccessTracker, NeighbouringBytesOfASharedArrayAreSeparateElements) {
    Fixture f(1, 64);
    f.tracker.begin_block({0, 0, 0});
    const auto* bytes = reinterpret_cast<const unsigned char*>(f.shared.data());
    for (unsigned t = 0; t < 8; ++t) f.at(t, reinterpret_cast<const float*>(bytes + t), kWrite, 100, 1);
    EXPECT_TRUE(f.tracker.races().empty());
}

TEST(AccessTracker, EachBlockStartsItsSharedMemoryOver) {
    Fixture f(2, 32);
    f.tracker.begin_block({0, 0, 0});
    f.at(1, &f.shared[0], kWrite, 100);
    f.tracker.begin_block({1, 0, 0});
    f.at(2, &f.shared[0], kWrite, 100);  // another block's copy of the array
    EXPECT_TRUE(f.tracker.races().empty());
}

// A tree reduction missing its barrier, replayed in two thread orders: the same example comes out.
RawRace reduction_race(bool reverse) {
    Fixture f(1, 8);
    f.tracker.begin_block({0, 0, 0});
    for (unsigned i = 0; i < 8; ++i) f.at(i, &f.shared[i], kWrite, 10);
    f.tracker.barrier();
    for (unsigned k = 0; k < 8; ++k) {
        const unsigned t = reverse ? 7 - k : k;
        for (unsigned s = 1; s < 8; s *= 2)
            if (t % (2 * s) == 0) {
                f.at(t, &f.shared[t], kRead, 20);
                f.at(t, &f.shared[t + s], kRead, 21);
                f.at(t, &f.shared[t], kWrite, 22);
            }
    }
    const auto races = f.tracker.races();
    EXPECT_FALSE(races.empty());
    return races.empty() ? RawRace{} : races.front();
}

TEST(AccessTracker, TheExampleIsTheSameInEveryOrder) {
    const RawRace forward = reduction_race(false), reverse = reduction_race(true);
    EXPECT_EQ(forward.element, reverse.element);
    EXPECT_EQ(forward.first_thread, reverse.first_thread);
    EXPECT_EQ(forward.second_thread, reverse.second_thread);
    EXPECT_EQ(forward.element, 2u);
    EXPECT_EQ(forward.first_thread, 0u);
    EXPECT_EQ(forward.second_thread, 2u);
}

}  // namespace
}  // namespace kplay

namespace kplay {
namespace {

// One warp's request, counted by hand: 32 lanes at `address(lane)`, each `size` bytes.
AccessTracker::SiteCount one_request(bool shared, const std::function<size_t(unsigned)>& offset, unsigned size = 4) {
    alignas(128) static unsigned char memory[1 << 16];
    const auto base = reinterpret_cast<uintptr_t>(memory);
    std::vector<TrackedRegion> buffers;
    if (!shared) buffers.push_back({base, base + sizeof memory, "buffer", 4, RaceSpace::global});
    AccessTracker tracker(buffers, {1, 1, 1}, {32, 1, 1});
    if (shared) tracker.set_shared_regions({{base, base + sizeof memory, "tile", 1, RaceSpace::shared}});
    tracker.begin_block({0, 0, 0});
    for (unsigned lane = 0; lane < 32; ++lane) tracker.access({lane, 0, 0}, base + offset(lane), size, 0, 77);
    const auto counts = tracker.site_counts();
    EXPECT_EQ(counts.size(), 1u);
    return counts.empty() ? AccessTracker::SiteCount{} : counts.front();
}

TEST(AccessCounts, CoalescedStridedAndBroadcastGlobalLoads) {
    const auto coalesced = one_request(false, [](unsigned lane) { return lane * 4; });
    EXPECT_EQ(coalesced.requests, 1);
    EXPECT_EQ(coalesced.units, 4);  // 128 bytes: 4 sectors of 32
    EXPECT_EQ(coalesced.ideal, 4);
    const auto strided = one_request(false, [](unsigned lane) { return lane * 128; });  // a column of a 32-float-wide matrix
    EXPECT_EQ(strided.units, 32);
    EXPECT_EQ(strided.ideal, 4);
    const auto broadcast = one_request(false, [](unsigned) { return 64; });
    EXPECT_EQ(broadcast.units, 1);
    EXPECT_EQ(broadcast.ideal, 1);
    const auto misaligned = one_request(false, [](unsigned lane) { return 4 + lane * 4; });
    EXPECT_EQ(misaligned.units, 5);
    const auto vector = one_request(false, [](unsigned lane) { return lane * 16; }, 16);  // float4: 512 bytes
    EXPECT_EQ(vector.units, 16);
    EXPECT_EQ(vector.ideal, 16);
}

TEST(AccessCounts, SharedBankConflicts) {
    const auto free = one_request(true, [](unsigned lane) { return lane * 4; });
    EXPECT_EQ(free.units, 1);
    EXPECT_EQ(free.ideal, 1);
    for (unsigned ways : {2u, 4u, 32u}) {
        SCOPED_TRACE(ways);
        const auto conflicted = one_request(true, [ways](unsigned lane) { return lane * 4 * ways; });
        EXPECT_EQ(conflicted.units, static_cast<int64_t>(ways));
        EXPECT_EQ(conflicted.ideal, 1);
    }
    const auto broadcast = one_request(true, [](unsigned) { return 8; });
    EXPECT_EQ(broadcast.units, 1);
}

TEST(AccessCounts, ALanesNthExecutionJoinsTheOtherLanesNth) {
    alignas(128) static float memory[4096];
    const auto base = reinterpret_cast<uintptr_t>(memory);
    AccessTracker tracker({{base, base + sizeof memory, "x", 4, RaceSpace::global}}, {1, 1, 1}, {32, 1, 1});
    tracker.begin_block({0, 0, 0});
    // A loop of 4 trips run lane by lane (as the emulated device runs threads): trip k of every lane reads
    // row k, so each trip is one coalesced request.
    for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned k = 0; k < 4; ++k) tracker.access({lane, 0, 0}, base + (k * 32 + lane) * 4, 4, 0, 9);
    const auto counts = tracker.site_counts();
    ASSERT_EQ(counts.size(), 1u);
    EXPECT_EQ(counts[0].requests, 4);
    EXPECT_EQ(counts[0].units, 16);
    EXPECT_EQ(counts[0].ideal, 16);
}

}  // namespace
// The advice fits the race: one line that every thread updates (a counter) is told to use an atomic,
// a read and a write at two lines to put a barrier between.
TEST(RaceAdvice, AnUpdateOnOneLineIsToldToBeAtomicAndTwoLinesAboutABarrier) {
    Race race;
    race.space = RaceSpace::global;
    race.array = "counter";
    race.first = {{0, 0, 0}, {0, 0, 0}, false, false, false, "count.cu", 7};
    race.second = {{0, 0, 0}, {40, 0, 0}, true, false, false, "count.cu", 7};
    EXPECT_NE(race_advice(race).find("make the update atomic (atomicAdd)"), std::string::npos) << race_advice(race);
    race.second.line = 9;
    EXPECT_EQ(race_advice(race).find("atomicAdd"), std::string::npos) << race_advice(race);
    EXPECT_NE(race_advice(race).find("put a __syncthreads() between the write and the read"), std::string::npos);
}

}  // namespace kplay
