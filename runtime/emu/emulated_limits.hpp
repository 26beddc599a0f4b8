// The emulated CPU device as kplay lists it: CUDA's launch limits on the host's cores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "emu/include/kplay_emu_abi.h"
#include "values/device_values.hpp"

namespace kplay {

// Limits mirror a recent GPU (1024 threads per block, 48 KiB of shared memory without the opt-in,
// 227 KiB with it), so a launch that works here is a valid launch there. ordinal is -1.
DeviceInfo emulated_device_info(int workers);

// A cooperative launch holds all its blocks at once, each on a thread of its own with its threads'
// fibers: empty when the grid fits, else why it does not (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
std::string cooperative_launch_refusal(const kplay_emu_dim& grid, const kplay_emu_dim& block);

// The threads the emulated device keeps resident at once, over every worker: each has a fiber stack
// (two mappings: the stack and its guard page), and the process must stay well below Linux's 65530
// mappings.
constexpr uint64_t kEmulatedResidentThreads = 16384;

// How many blocks of `threads` threads using `shared_bytes` of shared memory (static and dynamic) the
// GPU the emulated device mirrors keeps resident at once: an H200, 132 SMs, each holding at most 32
// blocks, 2048 threads (a block's threads counted in whole warps) and 228 KiB of shared memory, of
// which the driver reserves 1 KiB per block. Registers are not modelled (the emulated build has none),
// so a kernel that registers limit holds more here than on the GPU. `per_sm_limit` names what decided.
struct GpuResidency {
    uint64_t blocks = 0;
    unsigned per_sm = 0;
    const char* per_sm_limit = "";  // "32 blocks per SM", "2048 threads per SM" or "228 KiB of shared memory per SM"
};
GpuResidency gpu_resident_blocks(unsigned threads, size_t shared_bytes);

}  // namespace kplay
