// The compile stage: NVRTC judges the kernel file for every device (diagnostics even without one); the
// emulated device needs no CUBIN, so PTX does there. Cached (compile/compile_cache).
#pragma once

#include <string>

#include "values/compile_result.hpp"
#include "values/device_values.hpp"
#include "values/run_request.hpp"
#include "run/engine_services.hpp"
#include "run/open_device.hpp"
#include "run/read_file.hpp"

namespace kplay {

// A GPU that cannot run the file's arch= (sm_90a for wgmma) is told before NVRTC runs, in words, not as
// the driver's "no kernel image" at load. Throws InputError.
void check_target_arch(const RunRequest& request, const KernelFile& file, const Target& target, const DeviceQuery& devices);

// Throws InputError (an arch NVRTC does not know) or ApiError; a compile that fails is a value.
CompileResult compile_kernels(const RunRequest& request, const KernelFile& file, const Target& target, const EngineServices& services);

// The architecture to compile for: the request's, else the device's exact chip, else the default PTX.
std::string choose_arch(const std::string& requested, bool want_ptx, int device, const DeviceQuery& query);

}  // namespace kplay
