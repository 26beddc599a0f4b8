// kplay's own tuned device-to-device copy: the copy ceiling is the better of it and the driver's copy,
// so a kernel that copies well is measured against what the device is shown to do, not one library call.
#pragma once

#include "values/device_values.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/module.hpp"

namespace kplay {

class CopyKernel {
public:
    // Compiles with NVRTC for this device (needs the device's context current).
    explicit CopyKernel(const DeviceInfo& device);
    // Copies `from` to `to` (same size, a multiple of 16 bytes) with `blocks` x `threads`.
    void launch(const Stream& stream, const DeviceBuffer& from, const DeviceBuffer& to, unsigned blocks, unsigned threads) const;

private:
    Module module_;
    KernelFunction kernel_;
};

}  // namespace kplay
