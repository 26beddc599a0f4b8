// Evicts the L2 cache between timed launches by *reading* a buffer twice its size.
//
// A memset would also evict, but it leaves L2 full of dirty lines that the next (timed) kernel then has
// to write back, which charges it tens of microseconds it did not cause. Reading leaves clean lines:
// the write-backs of the previous launch's outputs happen here, outside the timed region.
#pragma once

#include "values/device_values.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/read_kernel.hpp"

namespace kplay {

class L2Flusher {
public:
    // Builds the read kernel for this device (needs the device's context current).
    explicit L2Flusher(const DeviceInfo& device);
    void flush(const Stream& stream) const;

private:
    DeviceBuffer buffer_;
    ReadKernel reader_;
    int blocks_ = 0;
};

}  // namespace kplay
