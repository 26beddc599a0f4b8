// Who touched which element, and which two accesses race: the bookkeeping behind a tracked launch.
//
// A tracked build reports every load, store and fence (kplay_emu_track.h); the block scheduler tells
// the tracker when a block starts, is resumed or ends, when its barrier releases and which lanes of a
// warp met at a __syncwarp. For each element of a buffer or of a __shared__ array the tracker keeps the
// last write and up to two reads since then, each with its thread, the barrier generation, the warp
// clock and the thread's fence counts at the time. Two accesses by different threads conflict when at
// least one writes, not both are atomic, and nothing orders them. What orders them follows CUDA's
// memory model (README, "What orders memory"):
//   - a __syncthreads() both passed (threads of one block);
//   - a __syncwarp() (or a cooperative-groups tile's sync) whose lanes include both, after the first
//     access (lanes of one warp). Shuffles, votes, __reduce_*_sync and __match_*_sync order nothing;
//   - a release and an acquire: the first thread (or its block, before a barrier) fenced
//     (__threadfence(); __threadfence_block() within its block only) and then wrote a flag with an
//     atomic or volatile store, and the second thread read that flag with an atomic or volatile load
//     before its access (or its block did, before a barrier).
// Two atomic accesses never race; two atomic-or-volatile accesses do not either, except volatile ones
// of lanes of one warp (warp-synchronous code, wrong since Volta). Because the rules look at
// generations, clocks and fences, not at which thread happened to run first, a race is found at every
// thread order. A tracked launch runs on one worker, so the tracker needs no locks; blocks may take
// turns on it (a block that waits for another is parked), so each block's state is kept apart.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <string>
#include <tuple>
#include <vector>

#include "emu/include/kplay_emu_abi.h"
#include "values/race_report.hpp"

namespace kplay {

// Memory whose elements are tracked: a buffer, a __shared__ array or the dynamic shared memory.
struct TrackedRegion {
    uintptr_t begin = 0, end = 0;
    std::string name;
    unsigned element_size = 1;  // the granularity of the bookkeeping (and of the element index reported)
    RaceSpace space = RaceSpace::global;
};

// A race as the tracker sees it: threads as linear ids and places as the code addresses of the accesses.
struct RawRace {
    RaceSpace space = RaceSpace::global;
    size_t region = 0;
    uint64_t element = 0;
    uint32_t first_thread = 0, second_thread = 0;  // global linear ids, first < second
    uint32_t first_site = 0, second_site = 0;      // indexes into sites()
    uint8_t first_flags = 0, second_flags = 0;     // kplay_emu_access_flags
    uint64_t conflicts = 0;
    bool across_warps = false;  // some conflict between these sites was between different warps (or blocks)
};

class AccessTracker {
public:
    AccessTracker(std::vector<TrackedRegion> global_regions, kplay_emu_dim grid, kplay_emu_dim block);
    ~AccessTracker();
    AccessTracker(const AccessTracker&) = delete;
    AccessTracker& operator=(const AccessTracker&) = delete;

    // The shared regions of the worker running the blocks (its __shared__ arrays live in its thread-local storage).
    void set_shared_regions(std::vector<TrackedRegion> regions);
    // Track `blocks` blocks: the first blocks - 1 and the grid's last, setting and clearing `flag` (the
    // tracked build's kplay_emu_tracking) as blocks begin.
    void track_only(volatile int* flag, uint32_t blocks) {
        switch_ = flag;
        tracked_blocks_ = blocks;
    }
    bool tracked_every_block() const { return counted_blocks_ <= tracked_blocks_; }
    void begin_block(const kplay_emu_dim& block_idx);   // a block starts on the worker
    void resume_block(const kplay_emu_dim& block_idx);  // a block that was parked runs again
    void end_block(const kplay_emu_dim& block_idx);     // every thread of the block has returned
    void barrier();                                     // the running block's __syncthreads() released
    // Lanes `lanes` of warp `warp` of the running block met at a __syncwarp (or a tile's sync).
    void warp_synced(unsigned warp, unsigned lanes);
    void access(const kplay_emu_dim& thread_idx, uintptr_t address, unsigned size, unsigned flags, uintptr_t pc);
    // Whether an access is being noted right now: a fault inside the bookkeeping (not the kernel's own, which
    // comes after its access was noted) leaves the tables half done, and they must not be read then.
    bool busy() const { return busy_; }

    // The races, one per pair of sites and array, with the example chosen as race_report.hpp says.
    std::vector<RawRace> races() const;
    const std::vector<uintptr_t>& sites() const { return sites_; }  // code addresses of the accesses that raced
    const std::vector<TrackedRegion>& regions() const { return regions_; }
    // Decodes a linear id back into a block and a thread.
    void decode(uint32_t id, kplay_emu_dim& block_idx, kplay_emu_dim& thread_idx) const;
    bool same_warp(uint32_t a, uint32_t b) const;

    // Memory requests per code site, counted over the first kCountedBlocks blocks: a request is one warp
    // executing one load or store (a lane's n-th execution of a site joins the other lanes' n-th). Global
    // memory: 32-byte sectors beside the fewest the bytes asked for could take; shared memory: wavefronts
    // (the most distinct 4-byte words any one of the 32 banks must serve) beside the ideal.
    static constexpr unsigned kCountedBlocks = 4;
    struct SiteCount {
        uintptr_t pc = 0;
        bool shared = false, store = false;
        int64_t requests = 0, units = 0, ideal = 0;
    };
    std::vector<SiteCount> site_counts();  // finishes the requests still open

    // The last write of element `element` of global region `region` (0 threads: never written).
    struct LastWrite {
        uint32_t thread = 0;  // linear id + 1; 0: none
        uintptr_t pc = 0;
        bool many = false, atomic = false;
    };
    LastWrite last_write(size_t region, uint64_t element) const;
    // How many elements of global region `region` some thread wrote, and how many more than one thread wrote plainly.
    std::pair<uint64_t, uint64_t> write_counts(size_t region) const;

    struct Stamp {
        uint32_t thread = 0;  // global linear id + 1; 0: none
        uint32_t generation = 0;   // the block's barrier generation (unique across blocks)
        uint32_t warp_clock = 0;   // the warp-sync clock at the access
        uint32_t fences = 0;       // device-scope fences the thread had made before it
        uint32_t local_fences = 0; // fences of any scope
        uint32_t site = 0;
        uint8_t flags = 0;
    };
    struct BlockState;  // one block's barriers, warp syncs, fences, acquisitions and shared memory
    struct Knowledge;   // what a thread or block has acquired: whose accesses are ordered before its own

private:
    struct Cell {
        Stamp write, read1, read2;
        uint8_t writers = 0;  // threads that wrote it (plainly): 0, 1, or 2 for more
        uint32_t last_site = 0;  // the site of the very last write (`write` keeps the writer's first since an ordering point)
    };
    struct Shadow {
        std::vector<Cell> cells;
    };

    bool ordered(const Stamp& earlier, const Stamp& now) const;
    bool known(const Stamp& earlier, const Stamp& now) const;  // a release the now-thread acquired covers `earlier`
    void check(size_t region, uint64_t element, const Stamp& earlier, const Stamp& now);
    void fence(uint32_t in_block, bool device_scope);
    void synchronise(size_t region, uintptr_t address, uint32_t in_block, unsigned flags);
    uint32_t site_of(uintptr_t pc);
    size_t region_of(uintptr_t address) const;
    Shadow& shadow_of(size_t region);

    std::vector<TrackedRegion> regions_;
    size_t global_count_ = 0;
    std::vector<Shadow> global_shadows_;
    std::vector<TrackedRegion> shared_layout_;  // the shared regions' sizes, for a new block's shadows
    uintptr_t low_ = 0, high_ = 0;  // the span of every region: most accesses (the stack) fall outside
    kplay_emu_dim grid_, block_;
    uint32_t threads_per_block_ = 1;
    uint32_t generation_ = 1;  // barrier generations, unique across blocks
    uint32_t warp_clock_ = 1;  // advanced by every __syncwarp of any block
    std::map<uint32_t, std::unique_ptr<BlockState>> blocks_;  // by linear block id
    BlockState* current_ = nullptr;
    bool busy_ = false;
    // Releases made to each flag: global addresses as they are, shared ones with their block (1 + id) above.
    std::map<std::pair<uint32_t, uintptr_t>, std::unique_ptr<Knowledge>> releases_;
    std::vector<uintptr_t> sites_;
    std::unordered_map<uintptr_t, uint32_t> site_index_;
    struct Request {
        std::vector<std::pair<uintptr_t, unsigned>> accesses;  // address, size
        bool shared = false, store = false;
    };
    void count(uint32_t in_block, uint32_t site, uintptr_t address, unsigned size, bool shared, bool store);
    void finish(uint64_t key, Request& request);
    void finish_requests();
    uint32_t counted_blocks_ = 0;  // blocks begun so far
    volatile int* switch_ = nullptr;
    uint32_t tracked_blocks_ = UINT32_MAX;
    uint32_t warp_lanes(uint32_t warp) const;
    std::unordered_map<uint64_t, uint32_t> executions_;  // (thread in block, site) -> times it ran the site, this turn of the block
    std::unordered_map<uint64_t, Request> open_;          // (warp, site, execution) -> the lanes so far
    std::map<uint32_t, SiteCount> site_counts_;
    // Per (region, lower site, higher site, both write): the example so far and the count.
    std::map<std::tuple<size_t, uint32_t, uint32_t, bool>, RawRace> races_;
};

}  // namespace kplay
