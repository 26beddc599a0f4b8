// Keeping and finding a run's device buffers.
#include "device/resident_buffers.hpp"

#include <algorithm>

namespace kplay {

std::vector<std::unique_ptr<DeviceBuffers>> ResidentBuffers::take(const std::string& key) {
    const auto found = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& entry) { return entry.key == key; });
    if (found == entries_.end()) return {};
    std::vector<std::unique_ptr<DeviceBuffers>> sets = std::move(found->sets);
    entries_.erase(found);
    return sets;
}

void ResidentBuffers::keep(const std::string& key, std::vector<std::unique_ptr<DeviceBuffers>> sets, size_t bytes) {
    if (key.empty() || bytes > budget_) return;
    take(key);  // an older entry of the same key goes
    entries_.push_front({key, std::move(sets), bytes});
    while (this->bytes() > budget_) entries_.pop_back();
}

size_t ResidentBuffers::bytes() const {
    size_t total = 0;
    for (const Entry& entry : entries_) total += entry.bytes;
    return total;
}

}  // namespace kplay
