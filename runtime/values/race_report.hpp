// Races a tracked emulated launch found: two threads that touched one element with nothing ordering
// them (no barrier both passed, no __syncwarp of both lanes, no fence-and-flag handoff, not both
// atomic), as plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "values/launch_config.hpp"

namespace kplay {

enum class RaceSpace { shared, global };

// The blocks a tracked launch checks for races: the first kTrackedBlocks - 1 and the grid's last (every
// block when the run asks who wrote an element).
constexpr uint32_t kTrackedBlocks = 16;

// One of the two accesses of a race.
struct RaceAccess {
    Dim3 block, thread;
    bool write = false;
    bool atomic = false;
    bool is_volatile = false;
    std::string file;  // the user's file and line of the load or store
    int line = 0;
};

// Every conflict between the same two lines of one array, counted, with one of them as the example:
// the lowest element and, for it, the lowest pair of threads, so that the report does not depend on
// the order the emulated device ran the threads in. `first` is the access of the lower thread.
struct Race {
    RaceSpace space = RaceSpace::shared;
    std::string kernel;
    std::string array;   // the buffer's name, or the __shared__ array's
    uint64_t element = 0;
    RaceAccess first, second;
    bool same_warp = false;   // every conflict was between lanes of one warp: warp-synchronous code without __syncwarp()
    bool same_block = true;   // false: threads of different blocks (global memory, no atomics)
    uint64_t conflicts = 0;   // how many element-and-thread-pair conflicts between these two lines
};

// What kind of race it is, from its two accesses and where their threads are.
enum class RaceKind {
    read_write,    // plain accesses of threads of one block, no __syncthreads() between (a read and a write)
    write_write,   // the same, both writing
    plain_atomic,  // a plain access against an atomic one (a reset racing with atomicAdds): a data race, often harmless in practice
    warp_local,    // lanes of one warp, no __syncwarp() between (warp-synchronous code)
    between_blocks // threads of different blocks through global memory, no fence-and-flag handoff between
};
RaceKind race_kind(const Race& race);
// "read-write", "write-write", "plain-atomic", "warp-local" or "between-blocks" (the JSON's `kind`).
const char* race_kind_name(const Race& race);
// How the report names it: "a warp-local race (lanes of one warp, no __syncwarp() between)".
std::string race_kind_words(const Race& race);
// One line: "shared array 'partial', element 2: thread (0,0,0) reads it at f.cu:31 and thread (2,0,0) of the same
// block writes it at f.cu:31, with no __syncthreads() between (41 such conflicts)".
std::string describe_race(const Race& race);
// Why it is wrong and what fixes it, for the kind of race it is.
std::string race_advice(const Race& race);

}  // namespace kplay
