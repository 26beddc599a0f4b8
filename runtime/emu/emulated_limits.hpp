// The emulated CPU device as kplay lists it: CUDA's launch limits on the host's cores.
#pragma once

#include "client/device_values.hpp"

namespace kplay {

// Limits mirror a recent GPU (1024 threads per block, 48 KiB of shared memory without the opt-in,
// 227 KiB with it), so a launch that works here is a valid launch there. ordinal is -1.
DeviceInfo emulated_device_info(int workers);

}  // namespace kplay
