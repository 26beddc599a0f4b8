// The ceiling stage: what the main size's rate is measured against, on the same GPU: the copy or
// read-only bandwidth (kept per device for the life of the process), or cuBLAS at the run's size (kept
// per size, or deferred to the window, which measures it separately). A library is its own ceiling;
// the emulated device has none.
#pragma once

#include "values/run_report.hpp"
#include "device/cuda_device.hpp"
#include "run/size_run.hpp"

namespace kplay {

// `gpu` null: the emulated device. `flops` is the main size's count. Throws ApiError.
Ceiling measure_ceiling(const SizeContext& context, CudaDevice* gpu, const SizeRun& main, double flops);

}  // namespace kplay
