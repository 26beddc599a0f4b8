// Theoretical occupancy without a GPU, from the architecture's limits (the CUDA occupancy calculator's rules).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kplay {

// Register allocation per warp in units, warp allocation granularity, shared memory allocation unit and the
// 1 KiB per block the driver reserves on sm_80+. The defaults are sm_90's.
struct SmLimits {
    int max_threads_per_sm = 2048, max_warps_per_sm = 64, max_blocks_per_sm = 32, max_threads_per_block = 1024;
    int registers_per_sm = 65536, max_registers_per_thread = 255, register_allocation_unit = 256, warp_allocation_granularity = 4;
    int smem_per_sm_bytes = 233472, max_smem_per_block_bytes = 232448, smem_allocation_unit = 128, reserved_smem_per_block_bytes = 1024;
};

// "sm_90", "sm_90a", "sm_100f", "compute_86": sm_70, 72, 75, 80, 86, 87, 89, 90, 100, 103, 120, 121.
// smem_per_sm_bytes is the largest carveout; the driver may configure less for a launch (Nsight Compute's
// "Shared Memory Configuration Size"), which lowers only the shared-memory block limit.
std::optional<SmLimits> sm_limits_for_arch(const std::string& arch);

enum class OccupancyLimiter { threads, registers, shared_memory, blocks, cannot_launch };

struct OccupancyEstimate {
    int blocks_per_sm = 0, active_warps = 0, max_warps = 0;
    double fraction = 0;                    // active_warps / max_warps
    OccupancyLimiter limiter = OccupancyLimiter::threads;  // the smallest limit (ties: registers, then shared memory, then threads, then blocks)
    // Each limit alone, uncapped (a register limit of 128 blocks is reported as 128). A resource the block
    // does not use at all (0 registers; no shared memory and nothing reserved) gives INT_MAX.
    int blocks_by_threads = 0, blocks_by_registers = 0, blocks_by_smem = 0, blocks_by_limit = 0;
    std::string why;                        // plain words: "registers: 128 per thread allow 2 blocks of 256 threads"; or why it cannot launch
};

// smem_per_block_bytes is static plus dynamic shared memory, without the driver's reserve (added here).
// Launches that cannot happen (a block over the thread limit, more than 255 registers, too much shared memory
// or too many registers for one block, limits that make no sense) give cannot_launch with zero blocks.
OccupancyEstimate estimate_occupancy(const SmLimits& limits, int block_threads, int registers_per_thread, int smem_per_block_bytes);

std::string_view name_of(OccupancyLimiter limiter);  // "threads", "registers", "shared memory", "blocks", "cannot launch"

}  // namespace kplay
