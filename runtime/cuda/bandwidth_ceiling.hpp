// The device's memory ceilings, measured on it and cached: the bandwidth of a large device-to-device
// copy (bytes read + written), and of reading alone (a kernel that only loads). A memory-bound task is
// measured against the one its cost names.
#pragma once

#include <filesystem>

#include "client/device_values.hpp"
#include "client/run_report.hpp"

namespace kplay {

// Each is the median of 10 timed operations over 512 MiB after 2 warm-ups (needs the device's context
// current), stored under cache_dir/ceilings keyed by the GPU's UUID and the driver version; `remeasure`
// ignores the cache file.
Ceiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);
Ceiling device_read_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);

}  // namespace kplay
