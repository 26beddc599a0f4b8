// Running the blocks of one worker thread; CUDA threads that wait become fibers (Boost.Context).
//
// Threads first run as plain calls, one after another in a single fiber. At the first barrier, warp
// collective or yield the block switches to fibers: the waiting thread keeps that fiber and every thread
// not yet started gets its own. Stacks are pooled per worker and end in a guard page. The block runs in
// rounds: each round resumes every runnable thread once, then releases what can go: a barrier when every
// live thread waits at it, a warp collective when the lanes its mask names are there (warp_collective),
// the grid barrier of a cooperative launch when every block has arrived (grid_barrier). A thread that
// polls for another yields (or is preempted, preemption.hpp) and runs again next round. When nothing can
// move the block is deadlocked, which is reported with the line, never waited on. The order in which
// threads are resumed is selectable, so a missing __syncthreads shows up as a different result.
//
// A block may also wait for another block, as blocks may on a GPU where both are resident. A round is
// quiet when no thread returned, arrived at or passed a barrier, and the threads that ran only polled,
// finding what they poll unchanged; after two quiet rounds (or, untracked, 20 ms without a move) the
// worker parks the block and starts a block not yet started, while Residency (block_residency.hpp)
// allows another resident block, or else resumes the parked block that waited longest. A parked block
// keeps its fibers; its shared memory (the worker's thread-local __shared__ arrays and its dynamic
// shared memory) is saved and restored around it, since every block of a worker uses the same. A
// tracked launch parks after rounds only (never after time) and sees its threads' polls through their
// loads, so its blocks interleave the same way at every run.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "emu/include/kplay_emu_abi.h"
#include "emu/preemption.hpp"
#include "values/run_request.hpp"  // ThreadOrder

namespace kplay {

class AccessTracker;
class GridBarrier;
class Residency;

// What the running kernel's shared object provides.
struct EmulatedKernel {
    void (*entry)(void** args) = nullptr;
    void (*set_thread)(kplay_emu_thread*) = nullptr;
};

// Where a block's problems go: a failure ends the launch (the callee does not return); a warning does not.
struct BlockEvents {
    std::function<void(const std::string& kind, const std::string& message, const char* file, int line)> fail;
    std::function<void(const std::string& message)> warn;
    std::function<void(const std::string& line)> print;  // one printf line, already tagged
};

struct LaunchGeometry {
    kplay_emu_dim grid{1, 1, 1}, block{1, 1, 1};
};

class BlockScheduler {
public:
    // `grid` is the barrier of a cooperative launch (each block on a worker of its own), else null.
    // `residency` is the launch's, shared by its workers.
    BlockScheduler(EmulatedKernel kernel, void** args, LaunchGeometry geometry, ThreadOrder order, uint64_t seed,
                   unsigned char* dynamic_smem, size_t dynamic_smem_bytes, BlockEvents events, Residency& residency,
                   GridBarrier* grid = nullptr);
    ~BlockScheduler();
    BlockScheduler(const BlockScheduler&) = delete;
    BlockScheduler& operator=(const BlockScheduler&) = delete;

    // One block to its end (a cooperative launch's worker: every block has a worker of its own).
    void run_block(kplay_emu_dim block_idx);
    // The blocks Residency hands this worker (number `worker`), several resident at once when they wait.
    void run_blocks(int worker);
    // This worker's block of the kernel's thread-local storage (its __shared__ arrays), saved and restored
    // with a parked block.
    void set_static_shared(unsigned char* begin, size_t bytes);
    // A tracked launch: every block this scheduler runs reports its accesses and barriers to `tracker`.
    void track(AccessTracker* tracker);

    // The host table the shared object calls back into (same for every scheduler; each call finds its
    // scheduler through a thread-local pointer).
    static const kplay_emu_host* host_table();
    // The CUDA thread running on this worker right now, for fault messages; null between threads.
    static const kplay_emu_thread* current_thread();
    // Lets the timer of each worker (start_preemption_timer) switch out a thread spinning in `kernel_code`.
    static void enable_preemption(CodeRange kernel_code);

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace kplay
