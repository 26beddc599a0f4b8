// The tracked parts of an emulated launch: which memory is tracked, and how the races travel from the
// launch process (a fixed block of the shared status) back to the caller as Race values.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "emu/access_tracker.hpp"
#include "emu/emulated_launch.hpp"

namespace kplay {

// In the shared status: plain bytes only (the launch process writes, the caller reads after it ended).
struct RaceSlots {
    static constexpr int kSlots = 32;
    struct Slot {
        RawRace race;
        uintptr_t first_pc = 0, second_pc = 0;  // offsets from the object's load address
    };
    int count = 0;
    int dropped = 0;
    Slot slots[kSlots];
};

// Who wrote the elements asked about, and each buffer's write counts (the first kBuffers buffers).
struct WriterSlots {
    static constexpr int kElements = 16, kBuffers = 32;
    struct Element {
        int found = 0;  // the buffer and index exist
        uint32_t thread = 0;
        uintptr_t pc = 0;  // offset from the object's load address
        int many = 0, atomic = 0;
    };
    Element elements[kElements];
    int complete = 0;  // every block was tracked: the write counts cover the whole grid
    uint64_t written[kBuffers], many[kBuffers];
};

// Each code site's memory requests (AccessTracker::site_counts), for the lines' table.
struct SiteSlots {
    static constexpr int kSlots = 256;
    int count = 0;
    struct Slot {
        uintptr_t pc = 0;  // offset from the object's load address
        int shared = 0, store = 0;
        int64_t requests = 0, units = 0, ideal = 0;
    };
    Slot slots[kSlots];
};
void publish_sites(AccessTracker& tracker, uintptr_t so_base, SiteSlots& slots);
// Per source line, as the same type Nsight Compute's counters fill (origin: the emulated device).
LineAccessProfile read_line_access(const SiteSlots& slots, const EmulatedLaunchRequest& request);

// The buffers, in request.buffers' order (their indexes are the regions' indexes).
std::vector<TrackedRegion> tracked_buffers(const EmulatedLaunchRequest& request);
// The calling worker's __shared__ arrays (in its thread-local block `tls_block`), then the dynamic shared memory.
std::vector<TrackedRegion> tracked_shared(const EmulatedLaunchRequest& request, const unsigned char* tls_block, unsigned char* dynamic_smem);

// In the launch process, after the grid: the tracker's races into `slots`.
void publish_races(const AccessTracker& tracker, uintptr_t so_base, RaceSlots& slots);
void publish_writers(const AccessTracker& tracker, const EmulatedLaunchRequest& request, uintptr_t so_base, WriterSlots& slots);
std::vector<ElementWriter> read_writers(const WriterSlots& slots, const EmulatedLaunchRequest& request);
std::vector<BufferWrites> read_buffer_writes(const WriterSlots& slots, const EmulatedLaunchRequest& request);

// In the caller: the races with names, threads and source lines.
std::vector<Race> read_races(const RaceSlots& slots, const EmulatedLaunchRequest& request);

}  // namespace kplay
