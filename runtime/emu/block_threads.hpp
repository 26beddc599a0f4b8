// The threads of a block as its worker's scheduler keeps them (block_scheduler.cpp), and a parked block.
#pragma once

#include <boost/context/fiber.hpp>
#include <cstdint>
#include <vector>

#include "emu/include/kplay_emu_abi.h"
#include "emu/warp_collective.hpp"

namespace kplay {

// runnable: none (not started, or released) and yield (it polls for others); waiting: the rest.
enum class Wait { none, yield, barrier, warp, grid, done };

// What a thread's polls read, for telling a block that waits from one that works. A named poll (an
// atomic, or a tracked load, finding the same value at the same address again) says where it reads.
struct PollState {
    const void* address = nullptr;  // its last named poll's, and the value it found
    unsigned long long value = 0;
    uintptr_t pc = 0;                     // where it last yielded
    const void* watch_address = nullptr;  // a tracked thread's last load, and how often it found the same value
    unsigned long long watch_value = 0;
    unsigned watch_repeats = 0;
    bool accessed = false;     // a tracked access since the thread was last resumed
    uintptr_t preempt_pc = 0;  // where the preemption timer last switched it out
};

struct ThreadSlot {
    kplay_emu_thread state{};
    boost::context::fiber fiber;         // this thread, while suspended
    boost::context::fiber sink;          // the scheduler, while this thread runs
    const void* stack_bottom = nullptr;  // for the sanitizer's fiber notes
    size_t stack_size = 0;
    Wait wait = Wait::none;
    bool started = false;
    const char* file = "";
    int line = 0;
    LaneRequest request;  // a pending warp collective
    unsigned long long result = 0;
    int barrier_op = KPLAY_BARRIER_SYNC, predicate = 0;  // a pending barrier, and what it returns
    PollState poll;
};

// How many threads of the block wait where, after a round.
struct Census {
    size_t live = 0, at_barrier = 0, at_warp = 0, at_grid = 0;
};

// What the threads of the running block did in one round.
struct RoundStats {
    unsigned polls = 0;    // yields of polling threads
    bool weak = false;     // a poll that names nothing it reads (a fence, __nanosleep, the preemption timer)
    bool changed = false;  // a named poll read another address or value than that thread's last
    bool arrived = false;  // a thread came to a block barrier
};

// A block its worker parked: what the scheduler keeps of the running block, and its shared memory.
struct ParkedBlock {
    kplay_emu_block block{};
    std::vector<ThreadSlot> slots;
    std::vector<size_t> resume_order;
    bool fiber_mode = false;
    std::vector<unsigned char> shared;  // the worker's static __shared__ bytes, then its dynamic shared memory
};

}  // namespace kplay
