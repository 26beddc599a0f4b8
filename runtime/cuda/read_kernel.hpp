// A kernel that reads a whole buffer in 16-byte words and writes nothing: the read-only ceiling times it,
// and the L2 flush runs it to evict the cache without leaving dirty lines.
#pragma once

#include "values/device_values.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/module.hpp"

namespace kplay {

class ReadKernel {
public:
    // Compiles with NVRTC for this device (needs the device's context current).
    explicit ReadKernel(const DeviceInfo& device);
    // Reads `data` (its size a multiple of 16 bytes) with a grid-stride loop over `blocks` x `threads`.
    void launch(const Stream& stream, const DeviceBuffer& data, unsigned blocks, unsigned threads) const;

private:
    Module module_;
    KernelFunction kernel_;
    DeviceBuffer sink_;
};

}  // namespace kplay
