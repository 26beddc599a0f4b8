// Occupancy by the rules of cuda_occupancy.h: registers are allocated per warp in units of 256 and per SM
// sub-partition (hence the rounding to 4 warps), shared memory per block in units of 128 B (256 B on sm_7x)
// plus the driver's 1 KiB reserve on sm_80+.
#include "inspect/occupancy_estimate.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace kplay {

namespace {

constexpr int kWarpSize = 32;

int64_t round_up(int64_t value, int64_t unit) { return unit <= 1 ? value : (value + unit - 1) / unit * unit; }

std::string bytes_text(int64_t bytes) {
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + " B";
}

std::string plural(int64_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

SmLimits make_limits(int threads, int blocks, int smem_kib, int smem_unit, int reserved) {
    SmLimits limits;
    limits.max_threads_per_sm = threads;
    limits.max_warps_per_sm = threads / kWarpSize;
    limits.max_blocks_per_sm = blocks;
    limits.smem_per_sm_bytes = smem_kib * 1024;
    // The opt-in maximum per block is what is left of the SM once the driver's reserve is taken.
    limits.max_smem_per_block_bytes = smem_kib * 1024 - reserved;
    limits.smem_allocation_unit = smem_unit;
    limits.reserved_smem_per_block_bytes = reserved;
    return limits;
}

OccupancyEstimate cannot_launch(OccupancyEstimate estimate, std::string why) {
    estimate.blocks_per_sm = 0;
    estimate.active_warps = 0;
    estimate.fraction = 0;
    estimate.limiter = OccupancyLimiter::cannot_launch;
    estimate.why = std::move(why);
    return estimate;
}

}  // namespace

std::optional<SmLimits> sm_limits_for_arch(const std::string& arch) {
    std::string_view text = arch;
    if (text.substr(0, 3) == "sm_") text.remove_prefix(3);
    else if (text.substr(0, 8) == "compute_") text.remove_prefix(8);
    else return std::nullopt;
    int number = 0;
    size_t digits = 0;
    while (digits < text.size() && digits < 4 && text[digits] >= '0' && text[digits] <= '9')
        number = number * 10 + (text[digits++] - '0');
    if (digits < 2) return std::nullopt;
    text.remove_prefix(digits);
    // Arch-specific ("a") and family ("f") variants share the base arch's SM.
    if (!(text.empty() || text == "a" || text == "f")) return std::nullopt;
    switch (number) {
        case 70: case 72: return make_limits(2048, 32, 96, 256, 0);
        case 75: return make_limits(1024, 16, 64, 256, 0);
        case 80: return make_limits(2048, 32, 164, 128, 1024);
        case 86: return make_limits(1536, 16, 100, 128, 1024);
        case 87: return make_limits(1536, 16, 164, 128, 1024);
        case 89: return make_limits(1536, 24, 100, 128, 1024);
        case 90: case 100: case 103: return make_limits(2048, 32, 228, 128, 1024);
        case 120: case 121: return make_limits(1536, 32, 100, 128, 1024);
        default: return std::nullopt;
    }
}

OccupancyEstimate estimate_occupancy(const SmLimits& limits, int block_threads, int registers_per_thread, int smem_per_block_bytes) {
    OccupancyEstimate estimate;
    estimate.max_warps = limits.max_warps_per_sm;
    estimate.blocks_by_limit = limits.max_blocks_per_sm;
    if (limits.max_warps_per_sm <= 0 || limits.max_blocks_per_sm <= 0 || limits.max_threads_per_block <= 0 ||
        limits.registers_per_sm <= 0 || limits.smem_per_sm_bytes < 0 || limits.max_smem_per_block_bytes < 0)
        return cannot_launch(estimate, "the SM limits are incomplete (a limit is zero or negative)");
    if (block_threads <= 0) return cannot_launch(estimate, "a block needs at least one thread");
    if (block_threads > limits.max_threads_per_block)
        return cannot_launch(estimate, "a block of " + std::to_string(block_threads) + " threads is over the limit of " +
                                           std::to_string(limits.max_threads_per_block) + " threads per block");
    if (registers_per_thread < 0) return cannot_launch(estimate, "a negative register count");
    if (registers_per_thread > limits.max_registers_per_thread)
        return cannot_launch(estimate, std::to_string(registers_per_thread) + " registers per thread is over the limit of " +
                                           std::to_string(limits.max_registers_per_thread));
    if (smem_per_block_bytes < 0) return cannot_launch(estimate, "a negative shared memory size");
    if (smem_per_block_bytes > limits.max_smem_per_block_bytes)
        return cannot_launch(estimate, bytes_text(smem_per_block_bytes) + " of shared memory per block is over the limit of " +
                                           bytes_text(limits.max_smem_per_block_bytes));

    const int warps_per_block = (block_threads + kWarpSize - 1) / kWarpSize;
    const int64_t granularity = std::max(1, limits.warp_allocation_granularity);

    // The hardware checks a block's registers as if every sub-partition got the same number of warps.
    const int64_t registers_per_warp =
        round_up(int64_t{registers_per_thread} * kWarpSize, std::max(1, limits.register_allocation_unit));
    const int64_t block_registers = registers_per_warp * round_up(warps_per_block, granularity);
    if (block_registers > limits.registers_per_sm)
        return cannot_launch(estimate, std::to_string(registers_per_thread) + " registers per thread for " +
                                           std::to_string(block_threads) + " threads need " + std::to_string(block_registers) +
                                           " registers, more than the SM's " + std::to_string(limits.registers_per_sm));
    if (registers_per_warp == 0) {
        estimate.blocks_by_registers = INT_MAX;
    } else {
        const int64_t warps = (limits.registers_per_sm / granularity) / registers_per_warp * granularity;
        estimate.blocks_by_registers = static_cast<int>(warps / warps_per_block);
    }

    // Both thread and warp limits are given; they agree for every real arch, take the stricter.
    int sm_warps = limits.max_warps_per_sm;
    if (limits.max_threads_per_sm > 0) sm_warps = std::min(sm_warps, limits.max_threads_per_sm / kWarpSize);
    estimate.blocks_by_threads = sm_warps / warps_per_block;
    if (estimate.blocks_by_threads == 0)
        return cannot_launch(estimate, "a block of " + plural(warps_per_block, "warp", "warps") + " is more than the SM's " +
                                           std::to_string(sm_warps) + " warps");

    const int64_t block_smem = round_up(int64_t{smem_per_block_bytes} + limits.reserved_smem_per_block_bytes,
                                        std::max(1, limits.smem_allocation_unit));
    if (block_smem == 0) {
        estimate.blocks_by_smem = INT_MAX;
    } else {
        estimate.blocks_by_smem = static_cast<int>(std::min<int64_t>(INT_MAX, limits.smem_per_sm_bytes / block_smem));
        if (estimate.blocks_by_smem == 0)
            return cannot_launch(estimate, bytes_text(block_smem) + " of shared memory per block is more than the SM's " +
                                               bytes_text(limits.smem_per_sm_bytes));
    }

    // Ties go to the resource a kernel author can change most directly.
    estimate.limiter = OccupancyLimiter::registers;
    int blocks = estimate.blocks_by_registers;
    if (estimate.blocks_by_smem < blocks) { blocks = estimate.blocks_by_smem; estimate.limiter = OccupancyLimiter::shared_memory; }
    if (estimate.blocks_by_threads < blocks) { blocks = estimate.blocks_by_threads; estimate.limiter = OccupancyLimiter::threads; }
    if (estimate.blocks_by_limit < blocks) { blocks = estimate.blocks_by_limit; estimate.limiter = OccupancyLimiter::blocks; }

    if (blocks <= 0) return cannot_launch(estimate, "no block fits in the SM with these limits");
    estimate.blocks_per_sm = blocks;
    estimate.active_warps = blocks * warps_per_block;
    estimate.fraction = static_cast<double>(estimate.active_warps) / limits.max_warps_per_sm;
    const std::string allow = " allow " + plural(blocks, "block", "blocks") + " of " + std::to_string(block_threads) + " threads";
    switch (estimate.limiter) {
        case OccupancyLimiter::registers:
            estimate.why = "registers: " + std::to_string(registers_per_thread) + " per thread" + allow;
            break;
        case OccupancyLimiter::shared_memory:
            estimate.why = "shared memory: " + bytes_text(block_smem) + " per block";
            if (limits.reserved_smem_per_block_bytes > 0)
                estimate.why += " (with the " + bytes_text(limits.reserved_smem_per_block_bytes) + " the driver reserves)";
            estimate.why += " in " + bytes_text(limits.smem_per_sm_bytes) + allow;
            break;
        case OccupancyLimiter::threads:
            estimate.why = "threads: " + plural(warps_per_block, "warp", "warps") + " per block in the SM's " +
                           std::to_string(sm_warps) + " warps" + allow;
            break;
        case OccupancyLimiter::blocks:
            estimate.why = "blocks: the SM holds at most " + plural(blocks, "block", "blocks") + ", here of " +
                           std::to_string(block_threads) + " threads";
            break;
        case OccupancyLimiter::cannot_launch:
            break;
    }
    return estimate;
}

std::string_view name_of(OccupancyLimiter limiter) {
    switch (limiter) {
        case OccupancyLimiter::threads: return "threads";
        case OccupancyLimiter::registers: return "registers";
        case OccupancyLimiter::shared_memory: return "shared memory";
        case OccupancyLimiter::blocks: return "blocks";
        case OccupancyLimiter::cannot_launch: return "cannot launch";
    }
    return "cannot launch";
}

}  // namespace kplay
