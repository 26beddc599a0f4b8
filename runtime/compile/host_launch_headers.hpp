// Headers that cannot work under NVRTC, refused by name before it runs: CUB's device-wide algorithms
// (cub/device/..., cub::DeviceReduce and kin) and Thrust launch kernels from the host through the CUDA
// runtime, and a kplay kernel file is device code that kplay launches. NVRTC's own error for them is
// pages of template noise (or, for some, a compile that succeeds and a kernel that cannot be called).
// CUB's umbrella <cub/cub.cuh> is not refused: NVRTC gets a stand-in without the device-wide layer
// (cub_stand_in.hpp), whose classes refuse a call by name.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "values/diagnostics.hpp"

namespace kplay {

// One error per #include of such a header in the source, or in a header it reaches through its folder
// and `include_dirs`, naming the header, why, and what to use instead; empty when none.
std::vector<Diagnostic> host_launch_header_errors(std::string_view source, const std::string& source_path,
                                                  const std::vector<std::string>& include_dirs);

}  // namespace kplay
