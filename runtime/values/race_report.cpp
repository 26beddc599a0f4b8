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

const char* race_kind_name(const Race& race) { return race.first.write && race.second.write ? "write-write" : "read-write"; }

std::string describe_race(const Race& race) {
    std::string text = std::string(race.space == RaceSpace::shared ? "shared array '" : "buffer '") + race.array + "', element " +
                       std::to_string(race.element) + ": thread " + dim(race.first.thread) + " of block " + dim(race.first.block) + " " +
                       verb(race.first) + where(race.first) + " and thread " + dim(race.second.thread);
    text += race.same_block ? " of the same block " : " of block " + dim(race.second.block) + " ";
    text += verb(race.second) + where(race.second);
    if (race.same_warp) text += ", two lanes of one warp with no __syncwarp() between";
    else if (race.same_block) text += ", with no __syncthreads() between";
    else text += ", in different blocks, without atomics";
    if (race.conflicts > 1) text += " (" + std::to_string(race.conflicts) + " such conflicts between these lines)";
    return text;
}

std::string race_advice(const Race& race) {
    if (race.same_warp)
        return "Since Volta the threads of a warp are scheduled independently: code that relies on a warp running in lockstep is a race. "
               "Put __syncwarp() between the read and the write (and between levels), or use warp shuffles (__shfl_down_sync)." +
               std::string(race.first.is_volatile || race.second.is_volatile ? " volatile alone does not order the lanes." : "");
    if (!race.same_block)
        return "Threads of different blocks have no barrier between them: update a shared total with an atomic (atomicAdd), or give each "
               "block its own part of the output.";
    if (race.first.write && race.second.write)
        return "Two threads write one element before a barrier orders them: the result depends on which writes last. Give each thread its "
               "own element, or use an atomic.";
    return "One thread reads an element another thread writes, and no __syncthreads() between them says which comes first: put a "
           "__syncthreads() between the write and the read (and between a read and the next write of the same element).";
}

}  // namespace kplay
