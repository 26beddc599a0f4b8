// Stages of a run that the GPU path (engine.cpp) and the emulated path (engine_emulated.cpp) share.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "run/engine.hpp"

namespace kplay {

// Later definitions of the same name win, so request defines override the annotation's.
std::vector<std::pair<std::string, std::string>> merge_defines(std::vector<std::pair<std::string, std::string>> base,
                                                                const std::vector<std::pair<std::string, std::string>>& extra);

// Block, grid and dynamic shared memory from the request and the spec, evaluated over the task's values
// (filled into `names`), recorded in the report and validated against the device's limits and the
// function's resources (skipped when `function` is null). Throws InputError for an invalid launch.
LaunchConfig resolve_launch(const RunRequest& request, const KernelSpec& spec, const Task& task, const TaskData& data,
                            const DeviceInfo& device, const FunctionAttributes* function, NamedValues& names, RunReport& report);

// Bytes and flops of the task, and the rates at the median kernel time.
void compute_rates(const Task& task, const TaskData& data, RunReport& report);

// For the window: the output image and the input it was made from (grayscale), and the map's shape.
void keep_outputs_for_window(const RunRequest& request, const KernelSpec& spec, const Task& task, const TaskData& data,
                             RunReport& report);

}  // namespace kplay
