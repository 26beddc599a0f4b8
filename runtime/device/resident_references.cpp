// Finding a reference on the device, or uploading and keeping it.
#include "device/resident_references.hpp"

namespace kplay {

std::shared_ptr<const DeviceBuffer> ResidentReferences::get(const std::string& key, const void* host, size_t bytes) {
    if (!key.empty())
        if (auto* found = entries_.find(key); found && (*found)->size() == bytes) return *found;
    auto copy = std::make_shared<DeviceBuffer>(bytes);
    copy->upload(host, bytes);
    ++uploads_;
    if (!key.empty() && bytes <= budget_) entries_.put(key, copy, bytes);
    return copy;
}

}  // namespace kplay
