// kplay's own small kernels (the read kernel, the copy kernel): compiled with NVRTC for one device and
// loaded, one function each. A failure is kplay's bug, never the user's, and says so.
#pragma once

#include "values/device_values.hpp"
#include "cuda/module.hpp"

namespace kplay {

struct BuiltinKernel {
    Module module;
    KernelFunction function;
};

// Compiles `source` (named `file` in messages) for `device` without line info and loads `name` from it
// (needs the device's context current). Throws InputError ("Internal: ...") if it does not compile.
BuiltinKernel build_builtin_kernel(const DeviceInfo& device, const char* source, const char* file, const char* name);

// The same for a source of several kernels: the loaded module, to take each function from.
Module build_builtin_module(const DeviceInfo& device, const char* source, const char* file);

}  // namespace kplay
