// Which blocks of a launch are resident at once, over all its workers, and what to say when they all wait.
//
// On a GPU every block that fits stays resident until it returns, so a block may spin on a flag that
// another block sets, as long as that block is resident too (a radix sort's pass that waits for the last
// block, a look-back scan by blockIdx, "the last block does the final step"). The emulated device runs
// the blocks of a worker one at a time; when a block only waits, its worker parks it and starts or
// resumes another (block_scheduler.hpp). Residency decides whether another block may start: as many as
// the GPU the emulated device mirrors keeps resident (gpu_resident_blocks: an H200's 132 SMs), and no
// more threads than the emulated device can hold fibers for (kEmulatedResidentThreads).
//
// When every worker's blocks only wait and no block can start, the grid cannot finish: with no block
// left to start nothing will set what they wait for (an endless wait); with blocks left, it needs more
// blocks at once than the GPU (or the emulated device) holds. A worker that finds everyone waiting
// writes a StallNote into the launch's shared status: the launch is stopped at once when every waiting
// thread provably polls an unchanged value (an atomic or a tracked load finding the same value again) for
// a while; otherwise the note words the timeout's message.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "emu/emulated_limits.hpp"
#include "emu/include/kplay_emu_abi.h"

namespace kplay {

// Why no block could start while the resident ones all waited, and where they wait. Plain data: it
// lives in the memory the launch process shares with its caller.
struct StallNote {
    enum Kind : int { none = 0, endless = 1, gpu_limit = 2, emulator_limit = 3 };
    int kind = none;
    int certain = 0;  // every waiting thread polled an unchanged value (else: they seemed to wait)
    uint64_t resident_blocks = 0, blocks = 0, threads_per_block = 0;
    uint64_t gpu_blocks = 0;  // what a GPU keeps resident of these blocks
    unsigned per_sm = 0;
    char per_sm_limit[48] = {};
    struct Entry {
        kplay_emu_dim block{};
        uintptr_t pc = 0;  // where a thread of it polls (0: none polls)
        char file[256] = {};
        int line = 0;          // where one waits at a barrier or warp operation, when none polls
        unsigned polling = 0;  // threads that poll
        unsigned live = 0;     // threads not yet returned
    };
    static constexpr int kEntries = 4;
    int entries = 0;
    Entry entry[kEntries];
};

struct StallSlot {
    std::atomic<int> state{0};  // 2: the note is of the stall now going on; 0: no note (written under a lock)
    StallNote note;
};

class Residency {
public:
    struct Settings {
        kplay_emu_dim grid{1, 1, 1}, block{1, 1, 1};
        size_t shared_bytes = 0;  // per block, static and dynamic: the GPU's limit depends on it
        int workers = 1;
        double report_after_s = 1;   // a stall every worker has seen this long, certain, is reported
        bool deterministic = false;  // a tracked launch: blocks are parked after rounds, never after time
    };
    // `report` ends the launch with the note in `slot` (kind "stall"); it does not return.
    Residency(const Settings& settings, StallSlot* slot, std::function<void()> report);

    // Claims the next block when one is left and the limits allow another resident block. A worker's
    // first resident block is let in whatever the threads resident elsewhere: the emulated device's
    // limit is on the blocks that wait beside others.
    bool take(kplay_emu_dim& index, bool first_on_worker);
    void finished();    // a block taken has returned
    bool left() const;  // blocks not yet taken
    bool deterministic() const { return settings_.deterministic; }

    // What each worker is doing, for the stall: a worker stalls when each of its resident blocks only
    // waited through a whole visit and it could take no block; `describe` adds its blocks to a note.
    void progress(int worker);
    void idle(int worker);  // no block resident on it
    void stalled(int worker, bool certain, const std::function<void(StallNote&)>& describe);

    // True once per launch: the first barrier released although some threads had returned.
    bool first_barrier_after_return() { return !barrier_after_return_.exchange(true); }

private:
    enum Mode : int { running = 0, idle_mode = 1, waiting = 2, waiting_certain = 3 };
    struct WorkerState {
        std::atomic<int> mode{running};
        std::atomic<int64_t> since_ns{0};
    };
    StallNote::Kind blocker() const;
    void write_note(StallNote& note, bool certain, const std::function<void(StallNote&)>& describe) const;

    Settings settings_;
    uint64_t blocks_ = 0, threads_per_block_ = 1;
    GpuResidency gpu_;
    std::atomic<uint64_t> next_{0}, resident_blocks_{0}, resident_threads_{0};
    std::unique_ptr<WorkerState[]> workers_;
    StallSlot* slot_;
    std::function<void()> report_;
    std::atomic<bool> barrier_after_return_{false};
};

// How a round, and a block's visit of the worker (its rounds until it returns or is parked), went.
struct Round {
    bool done = false;     // every thread has returned
    bool moved = false;    // a thread returned, came to or passed a block barrier, or polled a changed value
    bool quiet = false;    // nothing moved and some thread polled
    bool certain = false;  // quiet, every poll named an unchanged value, and no warp collective released
};
struct Visit {
    bool done = false, moved = false, certain = true;
};
constexpr unsigned kQuietRounds = 2;
constexpr auto kTimeSlice = std::chrono::milliseconds(20);  // untracked: a block that moves not for this long is parked

// What the rotation of a worker's blocks asks of that worker's scheduler (block_scheduler.cpp).
class BlockHost {
public:
    virtual ~BlockHost() = default;
    virtual Round round() = 0;  // the running block's next round
    virtual void start(kplay_emu_dim block_idx) = 0;
    virtual void park() = 0;    // the running block steps aside, kept with its shared memory
    virtual void unpark() = 0;  // the block parked longest runs again (the one running has returned or was parked)
    virtual size_t parked_blocks() const = 0;
    virtual void describe(StallNote& note) const = 0;  // adds where its blocks wait
};

// The blocks Residency hands worker `worker`: each runs until it returns or only waits (kQuietRounds
// quiet rounds in a row, rounds where warp collectives alone released not breaking the row, or,
// untracked, kTimeSlice without a move: a poll kplay cannot see, such as a volatile load beside warp
// votes). A block that waits is parked for a block not yet started or, when none may start, for the
// block parked longest. A worker whose every resident block waited a whole visit since the last start
// or move, with none to start, tells Residency it stalls.
void rotate_blocks(BlockHost& host, Residency& residency, int worker);

// The bytes of the kernel's thread-local storage (its static __shared__ arrays, CUB's temporary
// storage and the prelude's own) in the shared object that holds `symbol_address`: 0 when none.
size_t thread_local_bytes_of(const void* symbol_address);

// The note in words for the user (lines through addr2line, from the object loaded at `so_base`), and
// the first block's line for the editor. Empty when the slot holds no note.
struct StallText {
    std::string text, file;
    int line = 0;
};
StallText describe_stall(const StallSlot& slot, const std::filesystem::path& shared_object, uintptr_t so_base,
                         const std::string& runtime_headers);

}  // namespace kplay
