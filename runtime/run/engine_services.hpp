// What a run uses of the engine that outlives it: the configuration, the caches, the GPUs it keeps
// open, and the callers' callbacks.
#pragma once

#include <functional>

#include "values/device_values.hpp"
#include "values/stage.hpp"
#include "compile/compile_cache.hpp"
#include "run/engine.hpp"
#include "reference/references.hpp"
#include "tasks/input_cache.hpp"
#include "tasks/kept_view.hpp"

namespace kplay {

class CudaDevice;

struct EngineServices {
    const EngineConfig& config;
    CompileCache& compile_cache;
    std::function<CudaDevice&(int ordinal)> gpu;  // opens a GPU once per process, then reuses it
    InputCache& inputs;
    References& references;
    const ProgressCallback& progress;
    const PartialCallback& partial;
    const CutCheck& cut;
    const DeviceQuery& devices;  // queried once per run
    KeptView& kept_view;         // a downsampled view's output, for the full resolution on request

    // The phase the run is in now, for the watchdog (`fraction` of a long CPU reference, or -1).
    void report_progress(Phase phase, double fraction = -1) const {
        if (progress) progress(phase, fraction);
    }
    // Whether the rest of a progressive run is no longer wanted (CutCheck): false until its checked
    // result has gone.
    bool cut_short() const { return cut && cut(); }
};

}  // namespace kplay
