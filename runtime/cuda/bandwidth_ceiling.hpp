// The device's memory ceilings, measured on it and cached: the bandwidth of a large device-to-device
// copy (bytes read + written), and of reading alone (a kernel that only loads). A memory-bound task is
// measured against the one its cost names. Each is the best the device is shown to do: the copy is the
// better of the driver's copy and kplay's tuned copy kernel (cuda/copy_kernel), at several grid sizes.
#pragma once

#include <filesystem>

#include "values/device_values.hpp"
#include "values/run_report.hpp"

namespace kplay {

// Each candidate is the median of 10 samples after 2 warm-ups, a sample being four operations over 512
// MiB back to back, so that the writes left in L2 by each are written back inside the timing (needs the
// device's context current); the best is stored under cache_dir/ceilings keyed by the GPU's UUID and the driver version; `remeasure`
// ignores the cache file.
Ceiling device_copy_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);
Ceiling device_read_ceiling(const DeviceInfo& device, const std::filesystem::path& cache_dir, bool remeasure = false);

}  // namespace kplay
