// The path of one run, stage by stage: each stage hands a value to the next and nothing reaches back.
// Engine::run hosts it and turns what it throws into the report's error.
#pragma once

#include <functional>

#include "client/device_values.hpp"
#include "client/run_report.hpp"
#include "client/run_request.hpp"
#include "compile/compile_cache.hpp"
#include "run/engine.hpp"
#include "run/references.hpp"
#include "tasks/input_cache.hpp"

namespace kplay {

class CudaDevice;

// What a run uses of the engine that outlives it.
struct EngineServices {
    const EngineConfig& config;
    CompileCache& compile_cache;
    std::function<CudaDevice&(int ordinal)> gpu;  // opens a GPU once per process, then reuses it
    InputCache& inputs;
    References& references;
    const ProgressCallback& progress;
    const PartialCallback& partial;
    const DeviceQuery& devices;  // queried once per run
};

// Fills `report` as far as the run gets. Throws ApiError (a CUDA or NVRTC call failed), InputError
// (something the user gave cannot be used; ReferenceError for the reference's faults).
void run_pipeline(const RunRequest& request, RunReport& report, EngineServices& services);

// The architecture to compile for: the request's, else the device's exact chip, else the default PTX.
std::string choose_arch(const std::string& requested, bool want_ptx, int device, const DeviceQuery& query);

}  // namespace kplay
