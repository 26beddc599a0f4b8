// Plain-words explanations of CUDA run-time faults, and what to try next.
#pragma once

#include <string>

#include "values/fault_info.hpp"

namespace kplay {

// Sticky faults: illegal address, misaligned address, illegal instruction, hardware stack error,
// invalid PC, launch failed, device-side assert/__trap (measured: after any of these the process's
// context cannot be recovered, so only a new process can run kernels again).
bool is_sticky_cuda_error(int code);

// `rerun_command` is the kplay-cli command line that reproduces the run (for compute-sanitizer).
FaultInfo explain_cuda_error(int code, const std::string& rerun_command);

}  // namespace kplay
