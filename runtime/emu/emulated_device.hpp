// The emulated CPU device as kplay lists it: CUDA's launch limits on the host's cores.
#pragma once

#include "cuda/device_info.hpp"

namespace kplay {

// Limits mirror a recent GPU (1024 threads per block, 48 KiB of shared memory without the opt-in,
// 227 KiB with it), so a launch that works here is a valid launch there. ordinal is -1.
DeviceInfo emulated_device_info(int workers);

// Default inputs on the emulated device, where a GPU's defaults (4096^3, 7680x4320) would take a CPU
// minutes: about a second each.
constexpr int kEmulatedMatmulSize = 512;
constexpr const char* kEmulatedImageSize = "1920x1080";

}  // namespace kplay
