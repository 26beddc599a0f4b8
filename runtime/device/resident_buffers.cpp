// Keeping and finding a run's device buffers.
#include "device/resident_buffers.hpp"

namespace kplay {

std::vector<std::unique_ptr<DeviceBuffers>> ResidentBuffers::take(const std::string& key) {
    auto sets = entries_.take(key);
    return sets ? std::move(*sets) : std::vector<std::unique_ptr<DeviceBuffers>>();
}

void ResidentBuffers::keep(const std::string& key, std::vector<std::unique_ptr<DeviceBuffers>> sets, size_t bytes) {
    if (key.empty() || bytes > budget_) return;  // larger than the whole budget: let go at once
    entries_.put(key, std::move(sets), bytes);
}

}  // namespace kplay
