// The tracker's rules (access_tracker.hpp): a shadow cell per element, stamps, and the conflicts kept
// per pair of code sites with an example that does not depend on the thread order.
#include "emu/access_tracker.hpp"

#include <algorithm>

#include "values/writer_map.hpp"

namespace kplay {

namespace {

uint32_t linear(const kplay_emu_dim& index, const kplay_emu_dim& size) { return index.x + size.x * (index.y + size.y * index.z); }

}  // namespace

AccessTracker::AccessTracker(std::vector<TrackedRegion> global_regions, kplay_emu_dim grid, kplay_emu_dim block)
    : regions_(std::move(global_regions)), global_count_(regions_.size()), grid_(grid), block_(block) {
    threads_per_block_ = block.x * block.y * block.z;
    warp_generation_.assign((threads_per_block_ + 31) / 32, 0);
    for (const TrackedRegion& region : regions_) shadows_.push_back({std::vector<Cell>((region.end - region.begin) / region.element_size)});
    set_shared_regions({});
}

void AccessTracker::set_shared_regions(std::vector<TrackedRegion> regions) {
    regions_.resize(global_count_);
    shadows_.resize(global_count_);
    for (TrackedRegion& region : regions) {
        region.space = RaceSpace::shared;
        shadows_.push_back({std::vector<Cell>(region.end - region.begin)});  // shared memory: a cell per byte
        regions_.push_back(std::move(region));
    }
    low_ = UINTPTR_MAX;
    high_ = 0;
    for (const TrackedRegion& region : regions_) {
        low_ = std::min(low_, region.begin);
        high_ = std::max(high_, region.end);
    }
}

void AccessTracker::begin_block(const kplay_emu_dim& block_idx) {
    finish_requests();  // the last block's requests that not every lane made (divergence)
    ++counted_blocks_;
    if (switch_ && counted_blocks_ > tracked_blocks_) *switch_ = 0;
    block_base_ = linear(block_idx, grid_) * threads_per_block_;
    ++generation_;
    for (uint32_t& warp : warp_generation_) warp = next_warp_generation_++;
    // Shared memory starts over with each block (its arrays are the next block's too, on this worker).
    for (size_t r = global_count_; r < shadows_.size(); ++r) std::fill(shadows_[r].cells.begin(), shadows_[r].cells.end(), Cell{});
}

// resume_block: the lead's tracker fills this in
void AccessTracker::resume_block(const kplay_emu_dim&) {}

void AccessTracker::barrier() {
    ++generation_;
    for (uint32_t& warp : warp_generation_) warp = next_warp_generation_++;
}

void AccessTracker::warp_released(unsigned warp) {
    if (warp < warp_generation_.size()) warp_generation_[warp] = next_warp_generation_++;
}

size_t AccessTracker::region_of(uintptr_t address) const {
    for (size_t r = 0; r < regions_.size(); ++r)
        if (address >= regions_[r].begin && address < regions_[r].end) return r;
    return SIZE_MAX;
}

uint32_t AccessTracker::site_of(uintptr_t pc) {
    const auto [it, added] = site_index_.emplace(pc, static_cast<uint32_t>(sites_.size()));
    if (added) sites_.push_back(pc);
    return it->second;
}

bool AccessTracker::same_warp(uint32_t a, uint32_t b) const {
    return a / threads_per_block_ == b / threads_per_block_ && (a % threads_per_block_) / 32 == (b % threads_per_block_) / 32;
}

void AccessTracker::decode(uint32_t id, kplay_emu_dim& block_idx, kplay_emu_dim& thread_idx) const {
    Dim3 b, t;
    decode_thread(id, {grid_.x, grid_.y, grid_.z}, {block_.x, block_.y, block_.z}, b, t);
    block_idx = {static_cast<unsigned>(b.x), static_cast<unsigned>(b.y), static_cast<unsigned>(b.z)};
    thread_idx = {static_cast<unsigned>(t.x), static_cast<unsigned>(t.y), static_cast<unsigned>(t.z)};
}

// Whether `earlier` happens before `now`, or their kinds cannot conflict.
bool AccessTracker::ordered(const Stamp& earlier, const Stamp& now) const {
    const bool earlier_writes = earlier.flags & KPLAY_ACCESS_WRITE, now_writes = now.flags & KPLAY_ACCESS_WRITE;
    if (!earlier_writes && !now_writes) return true;
    if ((earlier.flags & KPLAY_ACCESS_ATOMIC) && (now.flags & KPLAY_ACCESS_ATOMIC)) return true;
    if (earlier.generation != now.generation) {
        // A barrier since (the same block), or another block: blocks are ordered by nothing, but only
        // two writes are reported across blocks (a block reading what an earlier kernel step or a
        // fenced, counted handover left is the common correct pattern).
        const bool other_block = (earlier.thread - 1) / threads_per_block_ != (now.thread - 1) / threads_per_block_;
        return !(other_block && earlier_writes && now_writes);
    }
    // The same barrier generation: only a warp collective between two lanes of one warp orders them.
    return same_warp(earlier.thread - 1, now.thread - 1) && earlier.warp_generation != now.warp_generation;
}

void AccessTracker::check(size_t region, uint64_t element, const Stamp& earlier, const Stamp& now) {
    if (earlier.thread == 0 || earlier.thread == now.thread || ordered(earlier, now)) return;
    const bool lower_first = earlier.thread < now.thread;
    const Stamp& first = lower_first ? earlier : now;
    const Stamp& second = lower_first ? now : earlier;
    const bool both_write = (first.flags & KPLAY_ACCESS_WRITE) && (second.flags & KPLAY_ACCESS_WRITE);
    const auto key = std::make_tuple(region, std::min(first.site, second.site), std::max(first.site, second.site), both_write);
    RawRace candidate;
    candidate.space = regions_[region].space;
    candidate.region = region;
    candidate.element = element;
    candidate.first_thread = first.thread - 1;
    candidate.second_thread = second.thread - 1;
    candidate.first_site = first.site;
    candidate.second_site = second.site;
    candidate.first_flags = first.flags;
    candidate.second_flags = second.flags;
    auto [it, added] = races_.emplace(key, candidate);
    RawRace& kept = it->second;
    const bool across = !same_warp(candidate.first_thread, candidate.second_thread);
    ++kept.conflicts;
    if (added) {
        kept.conflicts = 1;
        kept.across_warps = across;
        return;
    }
    kept.across_warps = kept.across_warps || across;
    const auto rank = [](const RawRace& r) { return std::make_tuple(r.element, r.first_thread, r.second_thread); };
    if (rank(candidate) < rank(kept)) {
        const uint64_t conflicts = kept.conflicts;
        const bool across_warps = kept.across_warps;
        kept = candidate;
        kept.conflicts = conflicts;
        kept.across_warps = across_warps;
    }
}

void AccessTracker::access(const kplay_emu_dim& thread_idx, uintptr_t address, unsigned size, unsigned flags, uintptr_t pc) {
    if (address >= high_ || address + size <= low_ || size == 0) return;
    const size_t r = region_of(address);
    if (r == SIZE_MAX) return;
    const TrackedRegion& region = regions_[r];
    Shadow& shadow = shadows_[r];
    const uint32_t in_block = linear(thread_idx, block_);
    Stamp now;
    now.thread = block_base_ + in_block + 1;
    now.generation = generation_;
    now.warp_generation = warp_generation_[in_block / 32];
    now.site = site_of(pc);
    now.flags = static_cast<uint8_t>(flags);
    const bool writes = flags & KPLAY_ACCESS_WRITE;
    if (counted_blocks_ <= kCountedBlocks) count(in_block, now.site, address, size, region.space == RaceSpace::shared, writes);
    const size_t granule = region.space == RaceSpace::shared ? 1 : region.element_size;
    // The element a shared array's race names is counted in the access's own size (partial[t] of floats: t).
    const size_t unit = region.space == RaceSpace::shared ? size : region.element_size;
    const size_t first = (address - region.begin) / granule;
    const size_t last = std::min((address + size - 1 - region.begin) / granule, shadow.cells.size() - 1);
    for (size_t c = first; c <= last; ++c) {
        Cell& cell = shadow.cells[c];
        const uint64_t element = c * granule / unit;
        // A shared element's bytes carry the same stamps: its conflicts are counted at its first byte.
        const bool counts = c == first || (c * granule) % unit == 0;
        if (counts) check(r, element, cell.write, now);
        if (writes) {
            if (counts) {
                check(r, element, cell.read1, now);
                check(r, element, cell.read2, now);
            }
            if (!(flags & KPLAY_ACCESS_ATOMIC) && cell.write.thread != now.thread && cell.writers < 2) ++cell.writers;
            else if (cell.writers == 0) cell.writers = 1;
            // The writer's first write since the last ordering point stays the stamp: a race is then the
            // same pair of lines whichever of the two threads ran first.
            const bool again = cell.write.thread == now.thread && cell.write.generation == now.generation &&
                               cell.write.warp_generation == now.warp_generation && (cell.write.flags & KPLAY_ACCESS_ATOMIC) == (flags & KPLAY_ACCESS_ATOMIC);
            if (!again) cell.write = now;
            cell.last_site = now.site;
            cell.read1 = cell.read2 = Stamp{};
        } else if (cell.read1.thread == 0 || cell.read1.generation != generation_) {
            cell.read1 = now;
            cell.read2 = Stamp{};
        } else if (cell.read1.thread != now.thread && cell.read2.thread != now.thread &&
                   (cell.read2.thread == 0 || cell.read2.generation != generation_)) {
            cell.read2 = now;
        }
    }
}

uint32_t AccessTracker::warp_lanes(uint32_t warp) const { return std::min<uint32_t>(32, threads_per_block_ - warp * 32); }

void AccessTracker::count(uint32_t in_block, uint32_t site, uintptr_t address, unsigned size, bool shared, bool store) {
    const uint32_t n = executions_[(static_cast<uint64_t>(in_block) << 32) | site]++;
    const uint32_t warp = in_block / 32;
    const uint64_t key = (static_cast<uint64_t>(warp) << 48) ^ (static_cast<uint64_t>(site) << 28) ^ n;
    Request& request = open_[key];
    request.shared = shared;
    request.store = store;
    request.accesses.emplace_back(address, size);
    if (request.accesses.size() == warp_lanes(warp)) {
        finish(key, request);
        open_.erase(key);
    }
}

void AccessTracker::finish(uint64_t key, Request& request) {
    const uint32_t site = static_cast<uint32_t>((key >> 28) & 0xFFFFF);
    SiteCount& counted = site_counts_[site];
    counted.pc = sites_[site];
    counted.shared = request.shared;
    counted.store = request.store;
    ++counted.requests;
    // The ideal counts the distinct bytes asked for: lanes reading one word (a broadcast) ask for 4 bytes.
    std::vector<uintptr_t> byte_addresses;
    for (const auto& [address, size] : request.accesses)
        for (unsigned b = 0; b < size; ++b) byte_addresses.push_back(address + b);
    std::sort(byte_addresses.begin(), byte_addresses.end());
    const uint64_t bytes = static_cast<uint64_t>(std::unique(byte_addresses.begin(), byte_addresses.end()) - byte_addresses.begin());
    if (!request.shared) {
        std::vector<uintptr_t> sectors;
        for (const auto& [address, size] : request.accesses)
            for (uintptr_t s = address >> 5; s <= (address + size - 1) >> 5; ++s) sectors.push_back(s);
        std::sort(sectors.begin(), sectors.end());
        counted.units += std::unique(sectors.begin(), sectors.end()) - sectors.begin();
        counted.ideal += static_cast<int64_t>((bytes + 31) / 32);
        return;
    }
    // Each bank serves one 4-byte word per wavefront; lanes reading the same word share it (a broadcast).
    std::vector<uintptr_t> words;
    for (const auto& [address, size] : request.accesses)
        for (uintptr_t w = address >> 2; w <= (address + size - 1) >> 2; ++w) words.push_back(w);
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    int per_bank[32] = {};
    int most = 0;
    for (uintptr_t w : words) most = std::max(most, ++per_bank[w % 32]);
    counted.units += most;
    counted.ideal += static_cast<int64_t>(std::max<uint64_t>(1, (bytes + 127) / 128));
}

void AccessTracker::finish_requests() {
    for (auto& [key, request] : open_) finish(key, request);
    open_.clear();
    executions_.clear();
}

std::vector<AccessTracker::SiteCount> AccessTracker::site_counts() {
    finish_requests();
    std::vector<SiteCount> counts;
    for (const auto& [site, counted] : site_counts_) counts.push_back(counted);
    return counts;
}

AccessTracker::LastWrite AccessTracker::last_write(size_t region, uint64_t element) const {
    LastWrite last;
    if (region >= global_count_ || element >= shadows_[region].cells.size()) return last;
    const Cell& cell = shadows_[region].cells[element];
    last.thread = cell.write.thread;
    last.pc = cell.write.thread ? sites_[cell.last_site] : 0;
    last.many = cell.writers > 1;
    last.atomic = cell.write.flags & KPLAY_ACCESS_ATOMIC;
    return last;
}

std::pair<uint64_t, uint64_t> AccessTracker::write_counts(size_t region) const {
    uint64_t written = 0, many = 0;
    if (region < global_count_)
        for (const Cell& cell : shadows_[region].cells) {
            written += cell.write.thread != 0;
            many += cell.writers > 1;
        }
    return {written, many};
}

std::vector<RawRace> AccessTracker::races() const {
    std::vector<RawRace> out;
    for (const auto& [key, race] : races_) out.push_back(race);
    std::sort(out.begin(), out.end(), [](const RawRace& a, const RawRace& b) {
        return std::make_tuple(a.region, a.element, a.first_thread, a.second_thread) <
               std::make_tuple(b.region, b.element, b.first_thread, b.second_thread);
    });
    return out;
}

}  // namespace kplay
