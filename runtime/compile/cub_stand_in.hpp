// <cub/cub.cuh> for NVRTC. CUB's umbrella header includes its device-wide layer (cub::DeviceReduce and
// kin), whose dispatch code is host code that launches kernels through the CUDA runtime; NVRTC refuses
// it ("A function explicitly marked as a __host__ function is not allowed in JIT mode"), so the real
// umbrella cannot compile for a kplay kernel, though most kernels that include it use only the block and
// warp primitives. kplay hands NVRTC a stand-in of that name (nvrtc_host_headers.hpp) that includes the
// toolkit's own block, warp, thread, grid, iterator and utility headers, and declares the device-wide
// classes with members that fail at a call, by name, with what to use instead. The emulated device's
// <cub/cub.cuh> declares the same classes (runtime/emu/include/cub/kplay_device_wide.cuh holds this text).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "values/diagnostics.hpp"

namespace kplay {

// The stand-in's text, handed to NVRTC as the header "cub/cub.cuh".
const char* cub_umbrella_stand_in();

// CUB's device-wide classes, each member a template whose call fails a static_assert naming it and
// saying what to use instead. Needs __host__ and __device__ to be keywords or empty macros.
const std::string& cub_device_wide_declarations();

// What a kernel uses instead of a device-wide algorithm (the end of the refusals' sentences).
const std::string& cub_device_wide_advice();

// NVRTC places a refused call's error in the stand-in, with the user's line in its "detected during
// instantiation ... at line N of FILE" context: each such error is moved to that line, its message made
// the refusal's sentence alone.
void place_cub_refusals(std::vector<Diagnostic>& diagnostics, std::string_view source, const std::string& source_path);

}  // namespace kplay
