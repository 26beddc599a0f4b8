// Regions of a tracked launch, and its races from raw ids and code addresses to names, threads and lines.
#include "emu/tracked_launch.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "emu/code_lines.hpp"

namespace kplay {

namespace {

Dim3 dim_of(const kplay_emu_dim& d) { return {d.x, d.y, d.z}; }

// The name of region `index`, in the order tracked_buffers + tracked_shared make them.
std::string region_name(const EmulatedLaunchRequest& request, size_t index) {
    if (index < request.buffers.size()) return request.buffers[index].name;
    index -= request.buffers.size();
    if (index < request.shared_arrays.size()) return request.shared_arrays[index].name;
    return "dynamic shared memory";
}

}  // namespace

std::vector<TrackedRegion> tracked_buffers(const EmulatedLaunchRequest& request) {
    std::vector<TrackedRegion> regions;
    for (const BufferLabel& buffer : request.buffers) {
        TrackedRegion region;
        region.begin = buffer.data;
        region.element_size = static_cast<unsigned>(std::max<size_t>(1, buffer.element_size));
        region.end = buffer.data + buffer.bytes / region.element_size * region.element_size;
        region.name = buffer.name;
        regions.push_back(region);
    }
    return regions;
}

std::vector<TrackedRegion> tracked_shared(const EmulatedLaunchRequest& request, const unsigned char* tls_block, unsigned char* dynamic_smem) {
    std::vector<TrackedRegion> regions;
    for (const SharedArraySymbol& array : request.shared_arrays) {
        TrackedRegion region;
        region.begin = tls_block ? reinterpret_cast<uintptr_t>(tls_block + array.offset) : 0;
        region.end = tls_block ? region.begin + array.bytes : 0;
        region.name = array.name;
        region.space = RaceSpace::shared;
        regions.push_back(region);
    }
    if (dynamic_smem && request.dynamic_smem > 0) {
        TrackedRegion region;
        region.begin = reinterpret_cast<uintptr_t>(dynamic_smem);
        region.end = region.begin + request.dynamic_smem;
        region.name = "dynamic shared memory";
        region.space = RaceSpace::shared;
        regions.push_back(region);
    }
    return regions;
}

void publish_races(const AccessTracker& tracker, uintptr_t so_base, RaceSlots& slots) {
    const std::vector<RawRace> races = tracker.races();
    slots.count = static_cast<int>(std::min<size_t>(races.size(), RaceSlots::kSlots));
    slots.dropped = static_cast<int>(races.size()) - slots.count;
    for (int i = 0; i < slots.count; ++i) {
        RaceSlots::Slot& slot = slots.slots[i];
        slot.race = races[static_cast<size_t>(i)];
        const uintptr_t first = tracker.sites()[slot.race.first_site], second = tracker.sites()[slot.race.second_site];
        slot.first_pc = first >= so_base ? first - so_base : 0;
        slot.second_pc = second >= so_base ? second - so_base : 0;
    }
}

void publish_writers(const AccessTracker& tracker, const EmulatedLaunchRequest& request, uintptr_t so_base, WriterSlots& slots) {
    for (size_t i = 0; i < request.who_wrote.size() && i < WriterSlots::kElements; ++i) {
        const ElementRef& ref = request.who_wrote[i];
        for (size_t b = 0; b < request.buffers.size(); ++b) {
            const BufferLabel& buffer = request.buffers[b];
            if (buffer.name != ref.buffer || ref.index >= buffer.bytes / std::max<size_t>(1, buffer.element_size)) continue;
            const AccessTracker::LastWrite last = tracker.last_write(b, ref.index);
            WriterSlots::Element& slot = slots.elements[i];
            slot.found = 1;
            slot.thread = last.thread;
            slot.pc = last.pc >= so_base ? last.pc - so_base : 0;
            slot.many = last.many;
            slot.atomic = last.atomic;
        }
    }
    slots.complete = tracker.tracked_every_block();
    for (size_t b = 0; b < request.buffers.size() && b < WriterSlots::kBuffers; ++b)
        std::tie(slots.written[b], slots.many[b]) = tracker.write_counts(b);
}

std::vector<ElementWriter> read_writers(const WriterSlots& slots, const EmulatedLaunchRequest& request) {
    std::vector<ElementWriter> writers;
    std::vector<uintptr_t> offsets;
    for (size_t i = 0; i < request.who_wrote.size() && i < WriterSlots::kElements; ++i) offsets.push_back(slots.elements[i].pc);
    const std::vector<CodeLine> lines = code_lines(request.shared_object, offsets, request.runtime_headers);
    const AccessTracker geometry({}, request.geometry.grid, request.geometry.block);
    for (size_t i = 0; i < request.who_wrote.size() && i < WriterSlots::kElements; ++i) {
        const WriterSlots::Element& slot = slots.elements[i];
        if (!slot.found) continue;  // no such buffer or index: the caller says so
        ElementWriter writer;
        writer.element = request.who_wrote[i];
        writer.written = slot.thread != 0;
        if (writer.written) {
            kplay_emu_dim block{}, thread{};
            geometry.decode(slot.thread - 1, block, thread);
            writer.block = dim_of(block);
            writer.thread = dim_of(thread);
            writer.many = slot.many;
            writer.atomic = slot.atomic;
            writer.file = lines[i].file;
            writer.line = lines[i].line;
        }
        writers.push_back(writer);
    }
    return writers;
}

std::vector<BufferWrites> read_buffer_writes(const WriterSlots& slots, const EmulatedLaunchRequest& request) {
    std::vector<BufferWrites> writes;
    if (!slots.complete) return writes;  // only the first blocks were tracked: their counts are not the grid's
    for (size_t b = 0; b < request.buffers.size() && b < WriterSlots::kBuffers; ++b) {
        const BufferLabel& buffer = request.buffers[b];
        writes.push_back({buffer.name, buffer.bytes / std::max<size_t>(1, buffer.element_size), slots.written[b], slots.many[b]});
    }
    return writes;
}

void publish_sites(AccessTracker& tracker, uintptr_t so_base, SiteSlots& slots) {
    const std::vector<AccessTracker::SiteCount> counts = tracker.site_counts();
    slots.count = static_cast<int>(std::min<size_t>(counts.size(), SiteSlots::kSlots));
    for (int i = 0; i < slots.count; ++i) {
        const AccessTracker::SiteCount& c = counts[static_cast<size_t>(i)];
        slots.slots[i] = {c.pc >= so_base ? c.pc - so_base : 0, c.shared, c.store, c.requests, c.units, c.ideal};
    }
}

LineAccessProfile read_line_access(const SiteSlots& slots, const EmulatedLaunchRequest& request) {
    LineAccessProfile profile;
    profile.origin = LineAccessOrigin::emulated_device;
    std::vector<uintptr_t> offsets;
    for (int i = 0; i < slots.count; ++i) offsets.push_back(slots.slots[i].pc);
    const std::vector<CodeLine> lines = code_lines(request.shared_object, offsets, request.runtime_headers);
    std::map<std::pair<std::string, int>, LineAccess> by_line;
    for (int i = 0; i < slots.count; ++i) {
        const CodeLine& where = lines[static_cast<size_t>(i)];
        if (where.line <= 0) continue;
        LineAccess& line = by_line[{where.file, where.line}];
        line.file = where.file;
        line.line = where.line;
        const SiteSlots::Slot& s = slots.slots[i];
        if (s.shared) {
            SharedAccess& a = s.store ? line.shared_stores : line.shared_loads;
            a.requests += s.requests;
            a.wavefronts += s.units;
            a.ideal_wavefronts += s.ideal;
        } else {
            GlobalAccess& a = s.store ? line.global_stores : line.global_loads;
            a.requests += s.requests;
            a.sectors += s.units;
            a.ideal_sectors += s.ideal;
        }
    }
    for (auto& [key, line] : by_line) profile.lines.push_back(std::move(line));
    return profile;
}

std::vector<Race> read_races(const RaceSlots& slots, const EmulatedLaunchRequest& request) {
    std::vector<uintptr_t> offsets;
    for (int i = 0; i < slots.count; ++i) {
        offsets.push_back(slots.slots[i].first_pc);
        offsets.push_back(slots.slots[i].second_pc);
    }
    const std::vector<CodeLine> lines = code_lines(request.shared_object, offsets, request.runtime_headers);
    const AccessTracker geometry({}, request.geometry.grid, request.geometry.block);  // decodes thread ids
    // Two code sites on the same pair of lines (an unrolled loop, a store and its reload) are one race.
    std::map<std::tuple<std::string, int, int, bool, bool>, Race> merged;
    for (int i = 0; i < slots.count; ++i) {
        const RawRace& raw = slots.slots[i].race;
        Race race;
        race.space = raw.space;
        race.array = region_name(request, raw.region);
        race.element = raw.element;
        kplay_emu_dim block{}, thread{};
        geometry.decode(raw.first_thread, block, thread);
        race.first.block = dim_of(block);
        race.first.thread = dim_of(thread);
        geometry.decode(raw.second_thread, block, thread);
        race.second.block = dim_of(block);
        race.second.thread = dim_of(thread);
        race.same_block = race.first.block.x == race.second.block.x && race.first.block.y == race.second.block.y &&
                          race.first.block.z == race.second.block.z;
        // Warp-synchronous code: every conflict between these lines was between lanes of one warp.
        race.same_warp = !raw.across_warps;
        for (auto [access, flags, line] : {std::tuple{&race.first, raw.first_flags, lines[2 * static_cast<size_t>(i)]},
                                           std::tuple{&race.second, raw.second_flags, lines[2 * static_cast<size_t>(i) + 1]}}) {
            access->write = flags & KPLAY_ACCESS_WRITE;
            access->atomic = flags & KPLAY_ACCESS_ATOMIC;
            access->is_volatile = flags & KPLAY_ACCESS_VOLATILE;
            access->file = line.file;
            access->line = line.line;
        }
        race.conflicts = raw.conflicts;
        const auto key = std::make_tuple(race.array, std::min(race.first.line, race.second.line), std::max(race.first.line, race.second.line),
                                         race.first.write && race.second.write, race.same_block);
        auto [it, added] = merged.emplace(key, race);
        if (!added) {
            const uint64_t conflicts = it->second.conflicts + race.conflicts;
            const bool same_warp = it->second.same_warp && race.same_warp;
            const auto rank = [](const Race& r) {
                return std::make_tuple(r.element, r.first.block.x, r.first.block.y, r.first.thread.z, r.first.thread.y, r.first.thread.x);
            };
            if (rank(race) < rank(it->second)) it->second = race;
            it->second.conflicts = conflicts;
            it->second.same_warp = same_warp;
        }
    }
    std::vector<Race> races;
    for (auto& [key, race] : merged) races.push_back(std::move(race));
    std::sort(races.begin(), races.end(), [](const Race& a, const Race& b) {
        return std::make_tuple(a.first.line, a.second.line, a.array) < std::make_tuple(b.first.line, b.second.line, b.array);
    });
    return races;
}

}  // namespace kplay
