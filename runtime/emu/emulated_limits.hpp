// The emulated CPU device as kplay lists it: CUDA's launch limits on the host's cores.
#pragma once

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

}  // namespace kplay
