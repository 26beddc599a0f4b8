// Workers grouped by what they run on: the device model and its compute capability, the emulated CPU
// device a group of its own. A group is one device to every view: times are compared only inside one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "values/device_values.hpp"

namespace kplay {

// The device a worker's runs go to: its first GPU (a pinned worker sees only its own), else the
// emulated CPU device.
struct WorkerDevice {
    DeviceInfo device;
    bool emulated = false;
};

// The device a worker that answered `query` runs on.
WorkerDevice device_of(const DeviceQuery& query);
// Empty when that worker can run kernels; else why not: no GPU, and no emulated device either.
std::string unusable_reason(const DeviceQuery& query);

struct DeviceGroup {
    std::string name;  // "NVIDIA H200", "Emulated CPU (16 worker threads)"
    int cc_major = 0, cc_minor = 0;
    bool emulated = false;
    std::vector<size_t> workers;  // indices into the list the groups were made from, in its order
};

// A group's name in a column's width: the model without its vendor and the compute capability ("H200
// sm_90"), or "cpu (emulated)".
std::string group_title(const DeviceGroup& group);

// Groups in the order their first worker appears. Two GPUs are alike when their names and compute
// capabilities are; emulated devices are alike when their names are (the name holds its thread count).
std::vector<DeviceGroup> group_by_device(const std::vector<WorkerDevice>& devices);

}  // namespace kplay
