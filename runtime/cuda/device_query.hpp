// Reading the CUDA devices the driver sees into DeviceInfo values.
#pragma once

#include "values/device_values.hpp"

namespace kplay {

// Lists the devices the driver sees. Never throws: a missing driver is a status in the result.
// (The emulated device and the NVRTC version are filled in by the engine.)
DeviceQuery query_devices();

// One device's details; throws ApiError/InputError if the ordinal is invalid.
DeviceInfo describe_device(int ordinal);
// The GPU's PCI address as NVML names it ("0000:19:00.0"). Throws CudaError.
std::string pci_bus_id(int ordinal);

}  // namespace kplay
