// The emulated device's thorough mode: kernels built with AddressSanitizer and UBSan.
//
// An instrumented shared object can only be loaded by a process whose first library is the ASan
// runtime, so thorough runs go to a kplay-worker started with the host compiler's libasan and libubsan
// preloaded (the environment below); its launch processes inherit them through fork.
#pragma once

#include <string>
#include <vector>

namespace kplay {

// LD_PRELOAD and the sanitizers' options for a thorough worker. Throws InputError when the host
// compiler has no sanitizer runtimes.
std::vector<std::string> sanitizer_worker_environment();

// Whether this process has the ASan runtime loaded (a thorough worker).
bool sanitizer_runtime_loaded();

// Host-compiler flags of a thorough build.
const std::vector<std::string>& sanitizer_build_flags();

// Symbols an instrumented object may leave to the sanitizer runtimes.
bool is_sanitizer_symbol(const std::string& name);

}  // namespace kplay
