// The GPU's side of base/fingerprint: one pass over a buffer on the device, the same 64-bit fingerprint
// the host computes, and only those 8 bytes read back.
#pragma once

#include <cstddef>
#include <cstdint>

#include "values/device_values.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/module.hpp"

namespace kplay {

class FingerprintKernel {
public:
    // Compiles with NVRTC for this device (needs the device's context current).
    explicit FingerprintKernel(const DeviceInfo& device);
    // The fingerprint of `bytes` bytes at `address`, after the work already on `stream`; waits for it.
    uint64_t fingerprint(const Stream& stream, CUdeviceptr address, size_t bytes) const;

private:
    Module module_;
    KernelFunction kernel_;
    DeviceBuffer sum_;
};

}  // namespace kplay
