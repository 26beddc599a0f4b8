// The device's memory ceilings, measured on it and cached: the bandwidth of a large device-to-device
// copy (bytes read + written), and of reading alone (a kernel that only loads). A memory-bound task is
// measured against the one its cost names. Each is the best the device is shown to do: the copy is the
// best of the driver's copy, kplay's tuned copy kernel (cuda/copy_kernel) and its read kernel, at
// several grid sizes.
#pragma once

#include <filesystem>

#include "values/device_values.hpp"
#include "values/run_report.hpp"

namespace kplay {

// Each candidate is the median of 10 samples of one operation over 512 MiB after 2 warm-ups, timed as a
// kernel is (L2 flushed by reading before each; needs the device's context current); the best is stored under cache_dir/ceilings keyed by the GPU's UUID and the driver version; `remeasure`
// ignores the cache file.
Ceiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);
Ceiling device_read_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);

}  // namespace kplay
