// The words of a race report: what the two threads did, and what fixes it.
#include "values/race_report.hpp"

namespace kplay {

namespace {

std::string dim(const Dim3& d) { return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")"; }

std::string verb(const RaceAccess& access) {
    std::string text = access.write ? (access.atomic ? "updates it atomically" : "writes it") : (access.atomic ? "reads it atomically" : "reads it");
    if (access.is_volatile) text += " (volatile)";
    return text;
}

std::string where(const RaceAccess& access) {
    return access.line > 0 ? " at " + access.file + ":" + std::to_string(access.line) : "";
}

}  // namespace

RaceKind race_kind(const Race& race) {
    if (race.first.atomic != race.second.atomic) return RaceKind::plain_atomic;
    if (!race.same_block) return RaceKind::between_blocks;
    if (race.same_warp) return RaceKind::warp_local;
    return race.first.write && race.second.write ? RaceKind::write_write : RaceKind::read_write;
}

const char* race_kind_name(const Race& race) {
    switch (race_kind(race)) {
        case RaceKind::plain_atomic: return "plain-atomic";
        case RaceKind::warp_local: return "warp-local";
        case RaceKind::between_blocks: return "between-blocks";
        case RaceKind::write_write: return "write-write";
        case RaceKind::read_write: break;
    }
    return "read-write";
}

std::string race_kind_words(const Race& race) {
    switch (race_kind(race)) {
        case RaceKind::plain_atomic: return "a plain access against an atomic one";
        case RaceKind::warp_local: return "a warp-local race (lanes of one warp, no __syncwarp() between)";
        case RaceKind::between_blocks: return "a race between blocks through global memory (no fence-and-flag handoff between)";
        case RaceKind::write_write: return "a write-write race (no __syncthreads() between)";
        case RaceKind::read_write: break;
    }
    return "a read-write race (no __syncthreads() between)";
}

std::string describe_race(const Race& race) {
    std::string text = std::string(race.space == RaceSpace::shared ? "shared array '" : "buffer '") + race.array + "', element " +
                       std::to_string(race.element) + ": thread " + dim(race.first.thread) + " of block " + dim(race.first.block) + " " +
                       verb(race.first) + where(race.first) + " and thread " + dim(race.second.thread);
    text += race.same_block ? " of the same block " : " of block " + dim(race.second.block) + " ";
    text += verb(race.second) + where(race.second);
    switch (race_kind(race)) {
        case RaceKind::warp_local: text += ", two lanes of one warp with no __syncwarp() between"; break;
        case RaceKind::between_blocks: text += ", in different blocks, with no fence-and-flag handoff between"; break;
        case RaceKind::plain_atomic:
            text += race.same_block ? ", one plainly and one atomically, with no __syncthreads() between"
                                    : ", one plainly and one atomically, in different blocks";
            break;
        default: text += ", with no __syncthreads() between"; break;
    }
    if (race.conflicts > 1) text += " (" + std::to_string(race.conflicts) + " such conflicts between these lines)";
    return text;
}

std::string race_advice(const Race& race) {
    if (race_kind(race) == RaceKind::plain_atomic)
        return "A plain load or store of an element other threads update atomically is a data race in CUDA's memory model, though often "
               "harmless in practice (a counter reset while others add to it): make the plain access atomic too (atomicExch to reset, "
               "atomicAdd(p, 0) or a volatile load to read), or put a __syncthreads() between.";
    if (race.same_warp)
        return "Since Volta the threads of a warp are scheduled independently: code that relies on a warp running in lockstep is a race. "
               "Put __syncwarp() between the read and the write (and between levels), or use warp shuffles (__shfl_down_sync)." +
               std::string(race.first.is_volatile || race.second.is_volatile ? " volatile alone does not order the lanes." : "");
    if (!race.same_block)
        return "Threads of different blocks have no barrier between them: update a shared total with an atomic (atomicAdd), give each "
               "block its own part of the output, or hand data over with a fence and a flag (write it, __threadfence(), then set the "
               "flag with an atomic; the reader waits for the flag with an atomic or volatile load before reading).";
    if (race.first.write && race.second.write)
        return "Two threads write one element before a barrier orders them: the result depends on which writes last. Give each thread its "
               "own element, or use an atomic.";
    const std::string order = "One thread reads an element another thread writes, and no __syncthreads() between them says which comes first: ";
    // One line that reads and writes the element in both threads: an update many threads share (a
    // counter, a running total) wants an atomic, where a barrier would leave every update racing.
    if (race.first.line == race.second.line && race.first.file == race.second.file)
        return order + "if every thread updates this one element (a counter, a running total), make the update atomic (atomicAdd); if "
                       "the threads take turns over the elements (a tree reduction), put a __syncthreads() between the write and the read.";
    return order + "put a __syncthreads() between the write and the read (and between a read and the next write of the same element).";
}

}  // namespace kplay
