// Loads libnvidia-ml.so.1 with dlopen and reads one device's clocks. The few prototypes are declared
// here (the toolkit does not ship nvml.h); each is NVML's stable C ABI for that name.
#include "cuda/nvml.hpp"

#include <dlfcn.h>

namespace kplay {

namespace {

using NvmlReturn = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
using NvmlDevice = void*;
constexpr NvmlReturn kSuccess = 0;
constexpr int kClockSm = 1, kClockMemory = 2;  // nvmlClockType_t
constexpr int kTemperatureGpu = 0;           // nvmlTemperatureSensors_t

}  // namespace

struct Nvml::Table {
    void* library = nullptr;
    NvmlDevice device = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*clock_info)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*temperature)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*power_usage)(NvmlDevice, unsigned int*) = nullptr;
    NvmlReturn (*throttle_reasons)(NvmlDevice, unsigned long long*) = nullptr;
};

std::unique_ptr<Nvml> Nvml::open(const std::string& pci_bus_id, std::string& why_not) {
    auto table = std::make_unique<Table>();
    table->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!table->library) {
        why_not = "NVML (libnvidia-ml.so.1) not found";
        return nullptr;
    }
    auto symbol = [&](const char* name) { return dlsym(table->library, name); };
    auto init = reinterpret_cast<NvmlReturn (*)()>(symbol("nvmlInit_v2"));
    auto by_bus_id = reinterpret_cast<NvmlReturn (*)(const char*, NvmlDevice*)>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
    table->shutdown = reinterpret_cast<NvmlReturn (*)()>(symbol("nvmlShutdown"));
    table->clock_info = reinterpret_cast<NvmlReturn (*)(NvmlDevice, int, unsigned int*)>(symbol("nvmlDeviceGetClockInfo"));
    table->temperature = reinterpret_cast<NvmlReturn (*)(NvmlDevice, int, unsigned int*)>(symbol("nvmlDeviceGetTemperature"));
    table->power_usage = reinterpret_cast<NvmlReturn (*)(NvmlDevice, unsigned int*)>(symbol("nvmlDeviceGetPowerUsage"));
    // Renamed "clocks event reasons" in NVML 12.2; the old name stays for older drivers.
    void* reasons = symbol("nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons) reasons = symbol("nvmlDeviceGetCurrentClocksThrottleReasons");
    table->throttle_reasons = reinterpret_cast<NvmlReturn (*)(NvmlDevice, unsigned long long*)>(reasons);
    if (!init || !by_bus_id || !table->shutdown || !table->clock_info || !table->temperature || !table->power_usage || !reasons) {
        dlclose(table->library);
        why_not = "NVML (libnvidia-ml.so.1) lacks the functions kplay reads";
        return nullptr;
    }
    if (init() != kSuccess) {
        dlclose(table->library);
        why_not = "NVML did not start (nvmlInit failed)";
        return nullptr;
    }
    if (by_bus_id(pci_bus_id.c_str(), &table->device) != kSuccess) {
        table->shutdown();
        dlclose(table->library);
        why_not = "NVML does not know the GPU at " + pci_bus_id;
        return nullptr;
    }
    return std::unique_ptr<Nvml>(new Nvml(std::move(table)));
}

Nvml::Nvml(std::unique_ptr<Table> table) : table_(std::move(table)) {}

Nvml::~Nvml() {
    table_->shutdown();
    dlclose(table_->library);
}

std::optional<ClockSample> Nvml::sample() const {
    unsigned int sm = 0, memory = 0, temperature = 0, milliwatts = 0;
    unsigned long long reasons = 0;
    const Table& t = *table_;
    if (t.clock_info(t.device, kClockSm, &sm) != kSuccess || t.clock_info(t.device, kClockMemory, &memory) != kSuccess) return std::nullopt;
    ClockSample sample;
    sample.sm_mhz = sm;
    sample.memory_mhz = memory;
    // Temperature, power and reasons are best effort: some boards do not report each.
    if (t.temperature(t.device, kTemperatureGpu, &temperature) == kSuccess) sample.temperature_c = temperature;
    if (t.power_usage(t.device, &milliwatts) == kSuccess) sample.power_w = milliwatts / 1000.0;
    if (t.throttle_reasons(t.device, &reasons) == kSuccess) sample.throttle_reasons = reasons;
    return sample;
}

}  // namespace kplay
