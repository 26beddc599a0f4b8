// The few functions of the device values.
#include "values/device_values.hpp"

namespace kplay {

std::string DeviceQuery::problem() const {
    if (!driver.ready()) return driver.message;
    if (devices.empty()) return "No CUDA device: the driver reports none. Compiling still works.";
    return {};
}

std::string cuda_version_string(int version) {
    if (version <= 0) return "unknown version";
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace kplay
