// The tracker's rules (access_tracker.hpp): a shadow cell per element, stamps, and the conflicts kept
// per pair of code sites with an example that does not depend on the thread order.
#include "emu/access_tracker.hpp"

#include <algorithm>

#include "values/writer_map.hpp"

namespace kplay {

namespace {

uint32_t linear(const kplay_emu_dim& index, const kplay_emu_dim& size) { return index.x + size.x * (index.y + size.y * index.z); }

template <class Map>
void raise(Map& map, uint32_t key, uint32_t value) {
    uint32_t& slot = map[key];
    slot = std::max(slot, value);
}

bool strong(uint8_t flags) { return flags & (KPLAY_ACCESS_ATOMIC | KPLAY_ACCESS_VOLATILE); }

}  // namespace

// Releases a thread or block has acquired, or that were made to one flag: the accesses of block B before
// generation `generation[B]` (they came before a barrier that came before a device-scope fence), and the
// accesses of thread T made before its `fences[T]`-th device-scope fence (or, for a thread of the same
// block, its `local_fences[T]`-th fence of any scope).
struct AccessTracker::Knowledge {
    std::unordered_map<uint32_t, uint32_t> generation, fences, local_fences;
    bool empty() const { return generation.empty() && fences.empty() && local_fences.empty(); }
    void merge(const Knowledge& other) {
        for (const auto& [key, value] : other.generation) raise(generation, key, value);
        for (const auto& [key, value] : other.fences) raise(fences, key, value);
        for (const auto& [key, value] : other.local_fences) raise(local_fences, key, value);
    }
};

struct AccessTracker::BlockState {
    uint32_t id = 0;    // linear block id
    uint32_t base = 0;  // the linear id of its thread 0
    uint32_t generation = 0;
    std::vector<uint32_t> warp_synced;         // per warp: the clock of its last __syncwarp of every lane
    std::vector<std::vector<uint32_t>> pairs;  // per warp, made at its first partial __syncwarp: 32x32 lane-pair clocks
    std::vector<uint32_t> fences, local_fences, fence_generation, local_fence_generation;  // per thread
    std::vector<uint32_t> fences_at_barrier;  // per thread: its device-scope fences when the last barrier released
    bool fenced_before_barrier = false;       // some thread had fenced by then
    std::vector<Knowledge> acquired;  // per thread, since the last barrier
    Knowledge block_acquired;         // by any thread, before the last barrier
    std::vector<Shadow> shared;       // the block's own view of the shared regions
};

AccessTracker::AccessTracker(std::vector<TrackedRegion> global_regions, kplay_emu_dim grid, kplay_emu_dim block)
    : regions_(std::move(global_regions)), global_count_(regions_.size()), grid_(grid), block_(block) {
    threads_per_block_ = block.x * block.y * block.z;
    for (const TrackedRegion& region : regions_) global_shadows_.push_back({std::vector<Cell>((region.end - region.begin) / region.element_size)});
    set_shared_regions({});
}

AccessTracker::~AccessTracker() = default;

void AccessTracker::set_shared_regions(std::vector<TrackedRegion> regions) {
    regions_.resize(global_count_);
    shared_layout_.clear();
    for (TrackedRegion& region : regions) {
        region.space = RaceSpace::shared;
        shared_layout_.push_back(region);
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
    // The first tracked_blocks_ - 1 blocks and the grid's last one: a "last block finishes the job" pattern
    // (a fence, a ticket, a final pass) is where races between blocks show.
    const uint32_t id = linear(block_idx, grid_);
    const bool last = id + 1 == grid_.x * grid_.y * grid_.z;
    const bool tracked = tracked_blocks_ == UINT32_MAX || counted_blocks_ < tracked_blocks_ || last;
    if (switch_) *switch_ = tracked ? 1 : 0;
    if (!tracked) {  // the build stops reporting accesses, and the block needs no bookkeeping
        current_ = nullptr;
        return;
    }
    auto state = std::make_unique<BlockState>();
    state->id = id;
    state->base = state->id * threads_per_block_;
    state->generation = ++generation_;
    const uint32_t warps = (threads_per_block_ + 31) / 32;
    state->warp_synced.assign(warps, 0);
    state->pairs.resize(warps);
    for (auto* counts : {&state->fences, &state->local_fences, &state->fence_generation, &state->local_fence_generation, &state->fences_at_barrier})
        counts->assign(threads_per_block_, 0);
    state->acquired.resize(threads_per_block_);
    // Shared memory starts over with each block: a cell per byte of each array (they are the next block's too, on this worker).
    for (const TrackedRegion& region : shared_layout_) state->shared.push_back({std::vector<Cell>(region.end - region.begin)});
    current_ = state.get();
    blocks_[state->id] = std::move(state);
}

void AccessTracker::resume_block(const kplay_emu_dim& block_idx) {
    const auto found = blocks_.find(linear(block_idx, grid_));
    finish_requests();
    current_ = found == blocks_.end() ? nullptr : found->second.get();  // none: an untracked block
    if (switch_) *switch_ = current_ ? 1 : 0;
}

void AccessTracker::end_block(const kplay_emu_dim& block_idx) {
    // Its global accesses stay in the global shadow; what only the block itself used goes.
    const auto found = blocks_.find(linear(block_idx, grid_));
    if (found == blocks_.end()) return;
    if (current_ == found->second.get()) current_ = nullptr;
    blocks_.erase(found);
}


void AccessTracker::barrier() {
    if (!current_) return;
    current_->generation = ++generation_;
    // A fence, then a barrier, then another thread's flag: the fence's thread's accesses before it are
    // released with the flag too (a barrier orders the block, and fences are cumulative).
    current_->fences_at_barrier = current_->fences;
    current_->fenced_before_barrier = std::any_of(current_->fences.begin(), current_->fences.end(), [](uint32_t n) { return n > 0; });
    // What any thread acquired before the barrier, every thread of the block has acquired after it.
    for (Knowledge& knowledge : current_->acquired)
        if (!knowledge.empty()) {
            current_->block_acquired.merge(knowledge);
            knowledge = Knowledge{};
        }
}

void AccessTracker::warp_synced(unsigned warp, unsigned lanes) {
    if (!current_ || warp >= current_->warp_synced.size()) return;
    const uint32_t clock = ++warp_clock_;
    const unsigned every = warp_lanes(warp) >= 32 ? 0xffffffffu : (1u << warp_lanes(warp)) - 1;
    if ((lanes & every) == every) {
        current_->warp_synced[warp] = clock;
        return;
    }
    std::vector<uint32_t>& pairs = current_->pairs[warp];
    if (pairs.empty()) pairs.assign(32 * 32, 0);
    for (unsigned a = 0; a < 32; ++a)
        if (lanes & (1u << a))
            for (unsigned b = 0; b < 32; ++b)
                if (lanes & (1u << b)) pairs[a * 32 + b] = clock;
}

size_t AccessTracker::region_of(uintptr_t address) const {
    for (size_t r = 0; r < regions_.size(); ++r)
        if (address >= regions_[r].begin && address < regions_[r].end) return r;
    return SIZE_MAX;
}

AccessTracker::Shadow& AccessTracker::shadow_of(size_t region) {
    return region < global_count_ ? global_shadows_[region] : current_->shared[region - global_count_];
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

// Whether a release that the now-thread (or its block) acquired covers the earlier access. The now-thread
// is the running block's.
bool AccessTracker::known(const Stamp& earlier, const Stamp& now) const {
    const uint32_t thread = earlier.thread - 1;
    const bool same_block = thread / threads_per_block_ == (now.thread - 1) / threads_per_block_;
    const auto covers = [&](const Knowledge& k) {
        if (const auto it = k.generation.find(thread / threads_per_block_); it != k.generation.end() && it->second > earlier.generation) return true;
        if (const auto it = k.fences.find(thread); it != k.fences.end() && it->second > earlier.fences) return true;
        if (!same_block) return false;
        const auto it = k.local_fences.find(thread);
        return it != k.local_fences.end() && it->second > earlier.local_fences;
    };
    return covers(current_->block_acquired) || covers(current_->acquired[(now.thread - 1) - current_->base]);
}

// Whether `earlier` happens before `now`, or their kinds cannot conflict.
bool AccessTracker::ordered(const Stamp& earlier, const Stamp& now) const {
    const bool earlier_writes = earlier.flags & KPLAY_ACCESS_WRITE, now_writes = now.flags & KPLAY_ACCESS_WRITE;
    if (!earlier_writes && !now_writes) return true;
    if ((earlier.flags & KPLAY_ACCESS_ATOMIC) && (now.flags & KPLAY_ACCESS_ATOMIC)) return true;
    const uint32_t a = earlier.thread - 1, b = now.thread - 1;
    const bool lanes_of_one_warp = same_warp(a, b);
    // Atomic or volatile on both sides: no data race (PTX's morally strong accesses), except volatile
    // lanes of one warp, which is warp-synchronous code relying on lockstep.
    if (strong(earlier.flags) && strong(now.flags) && !lanes_of_one_warp) return true;
    const bool same_block = a / threads_per_block_ == b / threads_per_block_;
    if (same_block && earlier.generation != now.generation) return true;  // a __syncthreads() between
    // Lanes of one warp storing to one address from one instruction: CUDA's programming guide says one of
    // the writes succeeds (the number of serialized writes is undefined), so it is no race; racecheck agrees.
    if (lanes_of_one_warp && earlier_writes && now_writes && earlier.site == now.site) return true;
    if (lanes_of_one_warp) {
        const uint32_t warp = (a % threads_per_block_) / 32;
        uint32_t synced = current_->warp_synced[warp];
        if (!current_->pairs[warp].empty()) synced = std::max(synced, current_->pairs[warp][(a % 32) * 32 + (b % 32)]);
        if (synced > earlier.warp_clock) return true;  // a __syncwarp of both lanes since
    }
    return known(earlier, now);
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

void AccessTracker::fence(uint32_t in_block, bool device_scope) {
    BlockState& block = *current_;
    ++block.local_fences[in_block];
    block.local_fence_generation[in_block] = block.generation;
    if (!device_scope) return;
    ++block.fences[in_block];
    block.fence_generation[in_block] = block.generation;
}

// An atomic or volatile access of a flag: a load acquires what was released to the flag; a store after a
// fence releases what came before the fence (and, for the fence's block, before the barrier it followed).
void AccessTracker::synchronise(size_t region, uintptr_t address, uint32_t in_block, unsigned flags) {
    BlockState& block = *current_;
    const bool shared = region != SIZE_MAX && region >= global_count_;  // (a flag outside every region: device-wide)
    const std::pair<uint32_t, uintptr_t> key{shared ? block.id + 1 : 0, address};
    // Looked up, not inserted: every volatile or atomic access comes here, and only a release makes an entry.
    const auto found = releases_.find(key);
    if (found != releases_.end() && (!(flags & KPLAY_ACCESS_WRITE) || (flags & KPLAY_ACCESS_ATOMIC)))
        block.acquired[in_block].merge(*found->second);
    if (!(flags & KPLAY_ACCESS_WRITE) || block.local_fences[in_block] == 0) return;
    std::unique_ptr<Knowledge>& released = found != releases_.end() ? found->second : releases_[key];
    if (!released) released = std::make_unique<Knowledge>();
    const uint32_t thread = block.base + in_block;
    raise(released->local_fences, thread, block.local_fences[in_block]);
    if (block.fences[in_block] == 0) return;
    raise(released->fences, thread, block.fences[in_block]);
    raise(released->generation, block.id, block.fence_generation[in_block]);
    if (block.fenced_before_barrier)
        for (uint32_t t = 0; t < threads_per_block_; ++t)
            if (block.fences_at_barrier[t] > 0) raise(released->fences, block.base + t, block.fences_at_barrier[t]);
}

void AccessTracker::access(const kplay_emu_dim& thread_idx, uintptr_t address, unsigned size, unsigned flags, uintptr_t pc) {
    if (!current_) return;
    struct Busy {
        bool& flag;
        explicit Busy(bool& f) : flag(f) { flag = true; }
        ~Busy() { flag = false; }
    } busy(busy_);
    const uint32_t in_block = linear(thread_idx, block_);
    if (flags & KPLAY_ACCESS_FENCE) return fence(in_block, !(flags & KPLAY_ACCESS_BLOCK_SCOPE));
    const size_t r = (address >= high_ || address + size <= low_ || size == 0) ? SIZE_MAX : region_of(address);
    // A flag need not be a buffer: `__device__ unsigned count;` hands data over as well as a buffer's element.
    if (strong(static_cast<uint8_t>(flags)) && size != 0) synchronise(r, address, in_block, flags);
    if (r == SIZE_MAX) return;
    const TrackedRegion& region = regions_[r];
    Shadow& shadow = shadow_of(r);
    Stamp now;
    now.thread = current_->base + in_block + 1;
    now.generation = current_->generation;
    now.warp_clock = warp_clock_;
    now.fences = current_->fences[in_block];
    now.local_fences = current_->local_fences[in_block];
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
                               cell.write.warp_clock == now.warp_clock && cell.write.fences == now.fences &&
                               cell.write.local_fences == now.local_fences && (cell.write.flags & KPLAY_ACCESS_ATOMIC) == (flags & KPLAY_ACCESS_ATOMIC);
            // A plain write that atomics race with stays the stamp, so every later atomic of another thread is
            // checked against it too: which warps add to a counter before its reset does not depend on the order.
            const bool racing_plain = (flags & KPLAY_ACCESS_ATOMIC) && cell.write.thread != 0 && cell.write.thread != now.thread &&
                                      !(cell.write.flags & KPLAY_ACCESS_ATOMIC) && !ordered(cell.write, now);
            if (!again && !racing_plain) cell.write = now;
            cell.last_site = now.site;
            cell.read1 = cell.read2 = Stamp{};
        } else if (cell.read1.thread == 0 || cell.read1.generation != now.generation) {
            cell.read1 = now;
            cell.read2 = Stamp{};
        } else if (cell.read1.thread != now.thread && cell.read2.thread != now.thread &&
                   (cell.read2.thread == 0 || cell.read2.generation != now.generation)) {
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
    if (region >= global_count_ || element >= global_shadows_[region].cells.size()) return last;
    const Cell& cell = global_shadows_[region].cells[element];
    last.thread = cell.write.thread;
    last.pc = cell.write.thread ? sites_[cell.last_site] : 0;
    last.many = cell.writers > 1;
    last.atomic = cell.write.flags & KPLAY_ACCESS_ATOMIC;
    return last;
}

std::pair<uint64_t, uint64_t> AccessTracker::write_counts(size_t region) const {
    uint64_t written = 0, many = 0;
    if (region < global_count_)
        for (const Cell& cell : global_shadows_[region].cells) {
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
