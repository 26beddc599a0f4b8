// Which device a worker runs on, and which workers run on alike devices.
#include "client/device_groups.hpp"

namespace kplay {

WorkerDevice device_of(const DeviceQuery& query) {
    if (!query.devices.empty()) return {query.devices.front(), false};
    return {query.emulated.device, true};
}

std::string unusable_reason(const DeviceQuery& query) {
    if (!query.devices.empty() || query.emulated.available) return "";
    return "it has no GPU (" + query.problem() + ") and no emulated device (" + query.emulated.problem + ")";
}

std::string group_title(const DeviceGroup& group) {
    if (group.emulated) return "cpu (emulated)";
    std::string model = group.name;
    if (model.rfind("NVIDIA ", 0) == 0) model.erase(0, 7);
    return model + " sm_" + std::to_string(group.cc_major * 10 + group.cc_minor);
}

std::vector<DeviceGroup> group_by_device(const std::vector<WorkerDevice>& devices) {
    std::vector<DeviceGroup> groups;
    for (size_t i = 0; i < devices.size(); ++i) {
        const WorkerDevice& worker = devices[i];
        const DeviceInfo& device = worker.device;
        DeviceGroup* group = nullptr;
        for (DeviceGroup& each : groups)
            if (each.emulated == worker.emulated && each.name == device.name &&
                (worker.emulated || (each.cc_major == device.cc_major && each.cc_minor == device.cc_minor)))
                group = &each;
        if (!group) {
            groups.push_back({device.name,
                              worker.emulated ? 0 : device.cc_major,
                              worker.emulated ? 0 : device.cc_minor,
                              worker.emulated,
                              {}});
            group = &groups.back();
        }
        group->workers.push_back(i);
    }
    return groups;
}

}  // namespace kplay
