// The buffers of recent runs, kept on the device while their inputs stay as written: a save that only
// changes the kernel finds its inputs already there and allocates and uploads nothing. Keyed by the
// input set's identity and the buffers' shapes; the least recently used go first past a byte budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/recent_entries.hpp"
#include "device/device.hpp"

namespace kplay {

class ResidentBuffers {
public:
    explicit ResidentBuffers(size_t byte_budget) : budget_(byte_budget), entries_(SIZE_MAX, byte_budget) {}
    ResidentBuffers(const ResidentBuffers&) = delete;
    ResidentBuffers& operator=(const ResidentBuffers&) = delete;

    // The sets kept under `key`, taken out (a run gives them back with keep() when it ends well).
    std::vector<std::unique_ptr<DeviceBuffers>> take(const std::string& key);
    // Keeps `sets` (`bytes` in all) under `key`; sets over the whole budget are let go at once.
    void keep(const std::string& key, std::vector<std::unique_ptr<DeviceBuffers>> sets, size_t bytes);
    void clear() { entries_.clear(); }
    size_t bytes() const { return entries_.bytes(); }

private:
    size_t budget_;
    RecentEntries<std::vector<std::unique_ptr<DeviceBuffers>>> entries_;
};

}  // namespace kplay
