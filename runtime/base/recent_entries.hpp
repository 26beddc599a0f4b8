// Values kept most recently used first, within a count and a byte budget: the least recently used go
// first. The GPU's resident buffers, the CPU references and the task inputs each keep theirs in one, so
// "what stays, and what goes when a save checks six sizes" is answered once. Not thread-safe: an owner
// shared across threads locks around it.
#pragma once

#include <cstddef>
#include <iterator>
#include <list>
#include <optional>
#include <string>
#include <utility>

namespace kplay {

template <typename Value>
class RecentEntries {
public:
    RecentEntries(size_t max_entries, size_t max_bytes) : max_entries_(max_entries), max_bytes_(max_bytes) {}

    // The value under `key`, now the most recently used; null when absent.
    Value* find(const std::string& key) {
        const auto found = locate(key);
        if (found == entries_.end()) return nullptr;
        entries_.splice(entries_.begin(), entries_, found);
        return &entries_.front().value;
    }

    // The value under `key`, taken out; nullopt when absent.
    std::optional<Value> take(const std::string& key) {
        const auto found = locate(key);
        if (found == entries_.end()) return std::nullopt;
        std::optional<Value> value(std::move(found->value));
        entries_.erase(found);
        return value;
    }

    // `value` (holding `bytes` of memory) first, in place of any entry of the same key; then the least
    // recently used go while the count or the bytes are over budget. The newest always stays: a caller
    // that must not keep a value larger than the whole budget checks before.
    void put(const std::string& key, Value value, size_t bytes) {
        take(key);
        entries_.push_front({key, std::move(value), bytes});
        while (entries_.size() > 1 && (entries_.size() > max_entries_ || this->bytes() > max_bytes_)) entries_.pop_back();
    }

    void clear() { entries_.clear(); }
    size_t size() const { return entries_.size(); }
    size_t bytes() const {
        size_t total = 0;
        for (const Entry& entry : entries_) total += entry.bytes;
        return total;
    }

private:
    struct Entry {
        std::string key;
        Value value;
        size_t bytes = 0;
    };

    typename std::list<Entry>::iterator locate(const std::string& key) {
        for (auto entry = entries_.begin(); entry != entries_.end(); ++entry)
            if (entry->key == key) return entry;
        return entries_.end();
    }

    size_t max_entries_, max_bytes_;
    std::list<Entry> entries_;  // most recently used first
};

}  // namespace kplay
