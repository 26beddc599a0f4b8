// The theoretical occupancy estimate against what Nsight Compute reported on the H200, and hand-worked cases.
#include <gtest/gtest.h>

#include <climits>

#include "inspect/ncu_report.hpp"
#include "inspect/occupancy_estimate.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

SmLimits hopper() {
    const auto limits = sm_limits_for_arch("sm_90");
    EXPECT_TRUE(limits);
    return limits.value_or(SmLimits{});
}

// What ncu's Occupancy section says must be what we estimate for the same kernel. Its shared-memory block
// limit is for the carveout the driver chose for that launch, so that one is checked with that carveout.
void expect_matches_ncu(const std::string& file, int block_threads) {
    std::string error;
    const auto profile = parse_ncu_details_csv(kplay::test::recorded_output(file), &error);
    ASSERT_TRUE(profile) << error;
    ASSERT_GE(profile->registers_per_thread, 0);
    ASSERT_GE(profile->static_smem_bytes, 0);
    const int smem = static_cast<int>(profile->static_smem_bytes + profile->dynamic_smem_bytes);
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), block_threads, profile->registers_per_thread, smem);
    EXPECT_EQ(estimate.blocks_by_registers, profile->block_limit_registers) << file;
    EXPECT_EQ(estimate.blocks_by_threads, profile->block_limit_warps) << file;
    EXPECT_EQ(estimate.blocks_by_limit, profile->block_limit_sm) << file;
    EXPECT_EQ(estimate.active_warps, static_cast<int>(profile->theoretical_active_warps)) << file;
    EXPECT_DOUBLE_EQ(estimate.fraction * 100, profile->theoretical_occupancy_pct) << file;
    EXPECT_EQ(hopper().reserved_smem_per_block_bytes, profile->driver_smem_bytes) << file;

    SmLimits as_configured = hopper();
    as_configured.smem_per_sm_bytes = static_cast<int>(profile->smem_config_bytes);
    const OccupancyEstimate configured = estimate_occupancy(as_configured, block_threads, profile->registers_per_thread, smem);
    EXPECT_EQ(configured.blocks_by_smem, profile->block_limit_smem) << file;
    EXPECT_EQ(configured.blocks_per_sm, estimate.blocks_per_sm) << file;  // the driver's carveout costs no occupancy
}

}  // namespace

TEST(SmLimits, KnownArchitectures) {
    const auto hopper_limits = sm_limits_for_arch("sm_90");
    ASSERT_TRUE(hopper_limits);
    const SmLimits defaults;
    EXPECT_EQ(hopper_limits->max_threads_per_sm, defaults.max_threads_per_sm);
    EXPECT_EQ(hopper_limits->max_warps_per_sm, 64);
    EXPECT_EQ(hopper_limits->max_blocks_per_sm, 32);
    EXPECT_EQ(hopper_limits->smem_per_sm_bytes, 233472);
    EXPECT_EQ(hopper_limits->max_smem_per_block_bytes, 232448);
    EXPECT_EQ(hopper_limits->smem_allocation_unit, 128);
    EXPECT_EQ(hopper_limits->reserved_smem_per_block_bytes, 1024);
    EXPECT_EQ(hopper_limits->registers_per_sm, 65536);
    for (const char* same : {"sm_90a", "compute_90", "compute_90a", "sm_100", "sm_100a", "sm_100f", "sm_103"}) {
        const auto limits = sm_limits_for_arch(same);
        ASSERT_TRUE(limits) << same;
        EXPECT_EQ(limits->smem_per_sm_bytes, 233472) << same;
        EXPECT_EQ(limits->max_warps_per_sm, 64) << same;
    }
    const auto ampere = sm_limits_for_arch("sm_80");
    ASSERT_TRUE(ampere);
    EXPECT_EQ(ampere->smem_per_sm_bytes, 167936);
    EXPECT_EQ(ampere->max_smem_per_block_bytes, 166912);
    const auto ga102 = sm_limits_for_arch("compute_86");
    ASSERT_TRUE(ga102);
    EXPECT_EQ(ga102->max_threads_per_sm, 1536);
    EXPECT_EQ(ga102->max_warps_per_sm, 48);
    EXPECT_EQ(ga102->max_blocks_per_sm, 16);
    EXPECT_EQ(ga102->smem_per_sm_bytes, 102400);
    EXPECT_EQ(sm_limits_for_arch("sm_89")->max_blocks_per_sm, 24);
    EXPECT_EQ(sm_limits_for_arch("sm_87")->smem_per_sm_bytes, 167936);
    const auto turing = sm_limits_for_arch("sm_75");
    ASSERT_TRUE(turing);
    EXPECT_EQ(turing->max_warps_per_sm, 32);
    EXPECT_EQ(turing->max_blocks_per_sm, 16);
    EXPECT_EQ(turing->smem_per_sm_bytes, 65536);
    EXPECT_EQ(turing->smem_allocation_unit, 256);
    EXPECT_EQ(turing->reserved_smem_per_block_bytes, 0);
    EXPECT_EQ(sm_limits_for_arch("sm_70")->smem_per_sm_bytes, 98304);
    EXPECT_EQ(sm_limits_for_arch("sm_72")->max_smem_per_block_bytes, 98304);
    const auto blackwell = sm_limits_for_arch("sm_120a");
    ASSERT_TRUE(blackwell);
    EXPECT_EQ(blackwell->max_warps_per_sm, 48);
    EXPECT_EQ(blackwell->smem_per_sm_bytes, 102400);
    EXPECT_TRUE(sm_limits_for_arch("sm_121"));
}

TEST(SmLimits, UnknownOrMalformedArchitectures) {
    for (const char* arch : {"", "sm_", "sm_9", "sm_60", "sm_95", "sm_90x", "sm_90ab", "sm_99999", "90", "gfx90a", "SM_90",
                             "compute_", "sm_-90", "sm_9O"})
        EXPECT_FALSE(sm_limits_for_arch(arch)) << arch;
}

TEST(OccupancyEstimate, MatchesNcuForGrayUint4) {
    // 256 threads, 31 registers, no static smem: 8 blocks by registers and by warps, 100%.
    expect_matches_ncu("ncu-05_sixteen_pixels_uint4.csv", 256);
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 256, 31, 0);
    EXPECT_EQ(estimate.blocks_per_sm, 8);
    EXPECT_EQ(estimate.blocks_by_registers, 8);
    EXPECT_EQ(estimate.blocks_by_threads, 8);
    EXPECT_EQ(estimate.blocks_by_smem, 228);  // the full 228 KiB carveout; ncu's 32 is for the driver's 32 KiB
    EXPECT_EQ(estimate.active_warps, 64);
    EXPECT_EQ(estimate.max_warps, 64);
    EXPECT_DOUBLE_EQ(estimate.fraction, 1.0);
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::registers);  // tied with threads: registers win the tie
}

TEST(OccupancyEstimate, MatchesNcuForWarpTiledSgemm) {
    // 256 threads, 128 registers, 32 KiB static smem: 2 blocks by registers, 25%.
    expect_matches_ncu("ncu-08_warp_tiling.csv", 256);
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 256, 128, 32768);
    EXPECT_EQ(estimate.blocks_per_sm, 2);
    EXPECT_EQ(estimate.blocks_by_registers, 2);
    EXPECT_EQ(estimate.blocks_by_smem, 6);  // 33 KiB per block in 228 KiB; ncu's 4 is for the driver's 132 KiB
    EXPECT_EQ(estimate.blocks_by_threads, 8);
    EXPECT_EQ(estimate.active_warps, 16);
    EXPECT_DOUBLE_EQ(estimate.fraction, 0.25);
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::registers);
    EXPECT_EQ(estimate.why, "registers: 128 per thread allow 2 blocks of 256 threads");
}

TEST(OccupancyEstimate, MatchesTheDriverAt17Registers) {
    // The H200's driver: 8 blocks/SM, 100% for 256 threads at 17 registers (cs-clean.txt's "occupancy" line).
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 256, 17, 0);
    EXPECT_EQ(estimate.blocks_per_sm, 8);
    EXPECT_DOUBLE_EQ(estimate.fraction, 1.0);
    EXPECT_EQ(estimate.blocks_by_registers, 10);  // 17 -> 768 registers per warp, 21 warps per sub-partition
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::threads);
    EXPECT_EQ(estimate.why, "threads: 8 warps per block in the SM's 64 warps allow 8 blocks of 256 threads");
}

TEST(OccupancyEstimate, FullBlockAt64Registers) {
    // 64 x 32 = 2048 registers per warp, 32 warps = all 65536: one block, half the SM's warps.
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 1024, 64, 0);
    EXPECT_EQ(estimate.blocks_per_sm, 1);
    EXPECT_EQ(estimate.blocks_by_registers, 1);
    EXPECT_EQ(estimate.blocks_by_threads, 2);
    EXPECT_EQ(estimate.active_warps, 32);
    EXPECT_DOUBLE_EQ(estimate.fraction, 0.5);
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::registers);
    EXPECT_EQ(estimate.why, "registers: 64 per thread allow 1 block of 1024 threads");
    // One more register per thread and the block no longer fits at all.
    const OccupancyEstimate over = estimate_occupancy(hopper(), 1024, 65, 0);
    EXPECT_EQ(over.limiter, OccupancyLimiter::cannot_launch);
    EXPECT_EQ(over.blocks_per_sm, 0);
    EXPECT_DOUBLE_EQ(over.fraction, 0);
    EXPECT_EQ(over.why, "65 registers per thread for 1024 threads need 73728 registers, more than the SM's 65536");
}

TEST(OccupancyEstimate, SharedMemoryLimit) {
    // 96 KiB + the 1 KiB reserve = 99328 B per block; 233472 / 99328 = 2 blocks of 4 warps.
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 128, 32, 96 * 1024);
    EXPECT_EQ(estimate.blocks_by_smem, 2);
    EXPECT_EQ(estimate.blocks_per_sm, 2);
    EXPECT_EQ(estimate.active_warps, 8);
    EXPECT_DOUBLE_EQ(estimate.fraction, 0.125);
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::shared_memory);
    EXPECT_EQ(estimate.why, "shared memory: 97 KiB per block (with the 1 KiB the driver reserves) in 228 KiB allow 2 blocks of 128 threads");
    // Rounded to the 128-byte unit: 100 B + 1024 B take 1152 B.
    EXPECT_EQ(estimate_occupancy(hopper(), 32, 16, 100).blocks_by_smem, 233472 / 1152);
    // The largest block the opt-in allows fits exactly once.
    const OccupancyEstimate largest = estimate_occupancy(hopper(), 256, 32, 232448);
    EXPECT_EQ(largest.blocks_per_sm, 1);
    EXPECT_EQ(largest.limiter, OccupancyLimiter::shared_memory);
    const OccupancyEstimate over = estimate_occupancy(hopper(), 256, 32, 232449);
    EXPECT_EQ(over.limiter, OccupancyLimiter::cannot_launch);
    EXPECT_EQ(over.why, "232449 B of shared memory per block is over the limit of 227 KiB");
}

TEST(OccupancyEstimate, BlockOverTheThreadLimit) {
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 1025, 32, 0);
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::cannot_launch);
    EXPECT_EQ(estimate.blocks_per_sm, 0);
    EXPECT_EQ(estimate.active_warps, 0);
    EXPECT_EQ(estimate.max_warps, 64);
    EXPECT_EQ(estimate.why, "a block of 1025 threads is over the limit of 1024 threads per block");
    EXPECT_EQ(estimate_occupancy(hopper(), 0, 32, 0).why, "a block needs at least one thread");
    EXPECT_EQ(estimate_occupancy(hopper(), -5, 32, 0).limiter, OccupancyLimiter::cannot_launch);
}

TEST(OccupancyEstimate, RegisterCountsAtAndOverTheLimit) {
    // 255 -> 8160 registers per warp, rounded to 8192: two warps per sub-partition, 8 per SM.
    const OccupancyEstimate one_warp = estimate_occupancy(hopper(), 32, 255, 0);
    EXPECT_EQ(one_warp.blocks_per_sm, 8);
    EXPECT_EQ(one_warp.active_warps, 8);
    EXPECT_DOUBLE_EQ(one_warp.fraction, 0.125);
    EXPECT_EQ(one_warp.limiter, OccupancyLimiter::registers);
    const OccupancyEstimate eight_warps = estimate_occupancy(hopper(), 256, 255, 0);
    EXPECT_EQ(eight_warps.blocks_per_sm, 1);
    EXPECT_EQ(eight_warps.active_warps, 8);
    EXPECT_EQ(estimate_occupancy(hopper(), 512, 255, 0).limiter, OccupancyLimiter::cannot_launch);
    for (int registers : {256, 300, INT_MAX, -1}) {
        const OccupancyEstimate over = estimate_occupancy(hopper(), 128, registers, 0);
        EXPECT_EQ(over.limiter, OccupancyLimiter::cannot_launch) << registers;
        EXPECT_EQ(over.blocks_per_sm, 0) << registers;
    }
    EXPECT_EQ(estimate_occupancy(hopper(), 128, 256, 0).why, "256 registers per thread is over the limit of 255");
}

TEST(OccupancyEstimate, TinyBlocksHitTheBlockLimit) {
    const OccupancyEstimate estimate = estimate_occupancy(hopper(), 32, 16, 0);
    EXPECT_EQ(estimate.blocks_by_registers, 128);
    EXPECT_EQ(estimate.blocks_by_threads, 64);
    EXPECT_EQ(estimate.blocks_by_limit, 32);
    EXPECT_EQ(estimate.blocks_per_sm, 32);
    EXPECT_DOUBLE_EQ(estimate.fraction, 0.5);
    EXPECT_EQ(estimate.limiter, OccupancyLimiter::blocks);
    EXPECT_EQ(estimate.why, "blocks: the SM holds at most 32 blocks, here of 32 threads");
    // A part-warp block still takes a whole warp.
    EXPECT_EQ(estimate_occupancy(hopper(), 1, 16, 0).active_warps, 32);
}

TEST(OccupancyEstimate, OtherArchitectures) {
    const auto ga102 = sm_limits_for_arch("sm_86");
    ASSERT_TRUE(ga102);
    const OccupancyEstimate big = estimate_occupancy(*ga102, 1024, 32, 0);
    EXPECT_EQ(big.blocks_per_sm, 1);
    EXPECT_EQ(big.blocks_by_registers, 2);
    EXPECT_EQ(big.max_warps, 48);
    EXPECT_NEAR(big.fraction, 32.0 / 48, 1e-12);
    EXPECT_EQ(big.limiter, OccupancyLimiter::threads);
    EXPECT_EQ(estimate_occupancy(*ga102, 128, 32, 0).blocks_per_sm, 12);  // 48 warps / 4
    EXPECT_EQ(estimate_occupancy(*ga102, 64, 32, 0).limiter, OccupancyLimiter::blocks);  // 16 blocks

    const auto turing = sm_limits_for_arch("sm_75");
    ASSERT_TRUE(turing);
    const OccupancyEstimate no_smem = estimate_occupancy(*turing, 1024, 0, 0);
    EXPECT_EQ(no_smem.blocks_by_smem, INT_MAX);  // no reserve before sm_80: shared memory sets no limit
    EXPECT_EQ(no_smem.blocks_by_registers, INT_MAX);
    EXPECT_EQ(no_smem.blocks_per_sm, 1);
    EXPECT_DOUBLE_EQ(no_smem.fraction, 1.0);
    EXPECT_EQ(no_smem.limiter, OccupancyLimiter::threads);
    EXPECT_EQ(estimate_occupancy(*turing, 256, 32, 20000).blocks_by_smem, 3);  // 20000 -> 20224 in 256 B units
}

TEST(OccupancyEstimate, NonsenseLimitsDoNotDivideByZero) {
    SmLimits broken;
    broken.max_warps_per_sm = 0;
    EXPECT_EQ(estimate_occupancy(broken, 256, 32, 0).limiter, OccupancyLimiter::cannot_launch);
    SmLimits zeros{};
    zeros.register_allocation_unit = 0;
    zeros.warp_allocation_granularity = 0;
    zeros.smem_allocation_unit = 0;
    const OccupancyEstimate estimate = estimate_occupancy(zeros, 256, 31, 0);
    EXPECT_EQ(estimate.blocks_per_sm, 8);
    SmLimits tiny_smem;
    tiny_smem.smem_per_sm_bytes = 512;  // less than the reserve
    EXPECT_EQ(estimate_occupancy(tiny_smem, 256, 32, 0).limiter, OccupancyLimiter::cannot_launch);
    SmLimits everything_zero;
    everything_zero.max_threads_per_sm = everything_zero.max_warps_per_sm = everything_zero.max_blocks_per_sm = 0;
    everything_zero.max_threads_per_block = everything_zero.registers_per_sm = 0;
    EXPECT_EQ(estimate_occupancy(everything_zero, 1, 1, 1).limiter, OccupancyLimiter::cannot_launch);
}

TEST(OccupancyEstimate, LimiterNames) {
    EXPECT_EQ(name_of(OccupancyLimiter::threads), "threads");
    EXPECT_EQ(name_of(OccupancyLimiter::registers), "registers");
    EXPECT_EQ(name_of(OccupancyLimiter::shared_memory), "shared memory");
    EXPECT_EQ(name_of(OccupancyLimiter::blocks), "blocks");
    EXPECT_EQ(name_of(OccupancyLimiter::cannot_launch), "cannot launch");
    EXPECT_EQ(name_of(static_cast<OccupancyLimiter>(99)), "cannot launch");
}
