// A small thread-safe cache of CPU references, keyed by the input set's identity.
//
// References are computed once per input set (an fp64 matmul of 4096^3 takes seconds) and reused by
// every run on the same inputs. The most recently used are kept, within a count and a byte budget: one
// save checks the main size, the test sizes and a second seed (six input sets and more), and the next
// save must still find the main size's.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "base/recent_entries.hpp"

namespace kplay {

template <typename Reference>
class ReferenceCache {
public:
    // `bytes_of` says how much memory a reference holds.
    ReferenceCache(size_t max_entries, size_t max_bytes, std::function<size_t(const Reference&)> bytes_of)
        : entries_(max_entries, max_bytes), bytes_of_(std::move(bytes_of)) {}

    struct Lookup {
        std::shared_ptr<const Reference> reference;
        double compute_ms = 0;  // time to compute it, or 0 when it was cached
        bool cached = false;
    };

    // Returns the reference for `identity`, computing it with `compute` (outside the lock) when absent.
    Lookup get(const std::string& identity, const std::function<Reference()>& compute) {
        {
            std::lock_guard lock(mutex_);
            if (const auto* found = entries_.find(identity)) return {*found, 0, true};
        }
        const auto start = std::chrono::steady_clock::now();
        auto reference = std::make_shared<const Reference>(compute());
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::lock_guard lock(mutex_);
        entries_.put(identity, reference, bytes_of_(*reference));
        return {reference, ms, false};
    }

private:
    RecentEntries<std::shared_ptr<const Reference>> entries_;
    std::function<size_t(const Reference&)> bytes_of_;
    std::mutex mutex_;
};

}  // namespace kplay
