// The references a GPU checks against, kept in its memory across runs: a save that changes only the
// kernel checks against the copy already there (a 7680x4320 photo's reference is 100 MB, and uploading
// it each save would be most of the check). Keyed by the reference's name (ExpectedOutputs::key) and the
// array; the least recently used go first past a byte budget.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/recent_entries.hpp"
#include "cuda/cuda_handles.hpp"

namespace kplay {

class ResidentReferences {
public:
    explicit ResidentReferences(size_t byte_budget) : budget_(byte_budget), entries_(SIZE_MAX, byte_budget) {}
    ResidentReferences(const ResidentReferences&) = delete;
    ResidentReferences& operator=(const ResidentReferences&) = delete;

    // The device's copy of `bytes` bytes at `host`, named `key`: the one kept, or uploaded now and kept
    // (unless `key` is empty, or the copy is larger than the whole budget). Shared: a run checking
    // against it keeps it alive when a newer reference pushes it out.
    std::shared_ptr<const DeviceBuffer> get(const std::string& key, const void* host, size_t bytes);
    size_t bytes() const { return entries_.bytes(); }
    int uploads() const { return uploads_; }  // since made: how many copies went to the device

private:
    size_t budget_;
    RecentEntries<std::shared_ptr<const DeviceBuffer>> entries_;
    int uploads_ = 0;
};

}  // namespace kplay
