// Filling a task's `__constant__` arrays (kplay-constant) on a device before its launches.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// The message for an array whose size in the module is not the declared one.
std::string constant_size_problem(const std::string& name, size_t symbol_bytes, size_t declared_bytes);

// Writes every constant buffer of `data` into each kernel's module (Device::write_constant); a kernel
// listed twice is written once.
void write_constants(Device& device, const std::vector<LoadedKernel*>& kernels, const TaskData& data);

// The names of a task's constant buffers, in order: what a build must give accessors to.
std::vector<std::string> constant_names(const TaskSpec& task);

}  // namespace kplay
