// The device's memory ceiling: bandwidth of a large device-to-device copy, measured once and cached.
#pragma once

#include <filesystem>

#include "cuda/device_info.hpp"

namespace kplay {

struct CopyCeiling {
    double gbps = 0;      // (bytes read + bytes written) / median time
    double copy_ms = 0;   // median time of one copy
    double bytes = 0;     // bytes read + written per copy
    bool cached = false;  // read from the cache file instead of measured now
};

// Measures with 10 timed copies of 512 MiB after 2 warm-ups (needs the device's context current).
// The result is stored under cache_dir/ceilings, keyed by the GPU's UUID and the driver version.
CopyCeiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);

}  // namespace kplay
