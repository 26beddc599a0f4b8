// Races a tracked emulated launch found: two threads that touched one element with nothing ordering
// them (no barrier both passed, no __syncwarp of their warp, not both atomic), as plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "values/launch_config.hpp"

namespace kplay {

enum class RaceSpace { shared, global };

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

// "read-write" or "write-write": which accesses conflicted, independent of which ran first.
const char* race_kind_name(const Race& race);
// One line: "shared array 'partial', element 2: thread (0,0,0) reads it at f.cu:31 and thread (2,0,0) of the same
// block writes it at f.cu:31, with no __syncthreads() between (41 such conflicts)".
std::string describe_race(const Race& race);
// Why it is wrong and what fixes it, for the kind of race it is.
std::string race_advice(const Race& race);

}  // namespace kplay
