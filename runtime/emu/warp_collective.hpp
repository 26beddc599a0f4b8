// Which lanes of a warp can finish their collective now, and what each of them gets back.
//
// A warp operation completes when the lanes its mask names are there, as on Volta and later GPUs: lanes
// 0-7 shuffling with mask 0xff go on while lanes 8-31 wait at __syncthreads(). A lane the mask names that
// has exited (or does not exist in a partial warp) is not waited for. The participants of one collective
// are the lanes the waiting lanes' masks name, closed over, all waiting at the same operation (so lanes
// that pass different masks to one operation still meet, and two operations never merge).
// __activemask() and coalesced_threads() name no mask: they return the lanes that reached that same call
// in the same round, the lanes a GPU would have executing it together.
#pragma once

#include <cstdint>

namespace kplay {

enum class LaneState : uint8_t {
    running,     // runnable, or yielding while it polls: not at a collective
    at_warp_op,  // waiting in a warp collective (its request says which)
    blocked,     // waiting at a block or grid barrier
    gone         // exited, or beyond the block's last thread
};

struct LaneRequest {
    int op = 0;  // kplay_emu_warp_op
    unsigned mask = 0;
    unsigned long long value = 0;
    int operand = 0;
    int width = 32;
    const char* file = "";
    int line = 0;
};

struct WarpLanes {
    LaneState state[32] = {};
    LaneRequest request[32];
};

// Releases what can go: returns the lanes that finished (their results are in `result`).
unsigned release_warp_collectives(const WarpLanes& lanes, unsigned long long (&result)[32]);

}  // namespace kplay
