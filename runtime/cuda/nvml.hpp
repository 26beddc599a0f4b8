// NVML (libnvidia-ml.so.1), loaded at run time as libcuda.so.1 is: the clocks, temperature, power and
// throttle reasons of one GPU, read around the timed repeats. Without the library a reading says why.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "values/timing_conditions.hpp"

namespace kplay {

class Nvml {
public:
    // NVML for the GPU at `pci_bus_id` (as cuDeviceGetPCIBusId writes it), or why not.
    static std::unique_ptr<Nvml> open(const std::string& pci_bus_id, std::string& why_not);
    ~Nvml();  // shuts NVML down and unloads it
    Nvml(const Nvml&) = delete;
    Nvml& operator=(const Nvml&) = delete;

    // The device's state now; nullopt when NVML refuses a reading.
    std::optional<ClockSample> sample() const;

private:
    struct Table;
    explicit Nvml(std::unique_ptr<Table> table);
    std::unique_ptr<Table> table_;
};

}  // namespace kplay
