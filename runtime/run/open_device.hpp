// The device stage: where a run goes (a GPU, or the emulated CPU device), and the device opened.
#pragma once

#include <memory>
#include <string>

#include "values/device_values.hpp"
#include "values/run_request.hpp"
#include "device/cuda_device.hpp"
#include "device/emulated_device.hpp"
#include "run/engine_services.hpp"
#include "run/read_file.hpp"

namespace kplay {

struct Target {
    bool have_gpu = false;  // the driver is ready and knows the requested ordinal
    bool emulate = false;   // asked for, or the fallback where no GPU is
};

Target choose_target(const RunRequest& request, const DeviceQuery& devices);

// The device a run launches on: an emulated device of its own, or a GPU the engine keeps open; or,
// with neither, why (the run's error).
struct OpenedDevice {
    std::unique_ptr<EmulatedDevice> emulated;
    CudaDevice* gpu = nullptr;
    std::string problem;

    Device& device() const { return emulated ? static_cast<Device&>(*emulated) : *gpu; }
};

// Throws InputError (the emulated device refuses the file; an earlier fault spoilt the GPU's context)
// or ApiError.
OpenedDevice open_device(const RunRequest& request, const KernelFile& file, const Target& target, const EngineServices& services);

}  // namespace kplay
