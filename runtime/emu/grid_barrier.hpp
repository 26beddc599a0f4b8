// this_grid().sync() across the blocks of a cooperative launch, each block on a worker of its own.
//
// A block arrives when every one of its threads waits at the grid barrier; the barrier releases when
// every block has arrived. A block that has returned can never arrive, so a barrier that some blocks
// wait at while others have returned is a deadlock, reported with the line instead of waited on.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>

#include "emu/include/kplay_emu_abi.h"

namespace kplay {

class GridBarrier {
public:
    // `deadlock` reports and ends the launch (it does not return).
    GridBarrier(unsigned long long blocks, std::function<void(const std::string& message, const char* file, int line)> deadlock);
    GridBarrier(const GridBarrier&) = delete;
    GridBarrier& operator=(const GridBarrier&) = delete;

    // Every thread of `block` waits at the grid barrier at file:line: returns when every block has arrived.
    void arrive_and_wait(const kplay_emu_dim& block, const char* file, int line);
    // Every thread of `block` has returned.
    void block_finished(const kplay_emu_dim& block);

private:
    void check_deadlock_locked();

    std::mutex mutex_;
    std::condition_variable released_;
    unsigned long long blocks_ = 0, arrived_ = 0, finished_ = 0, generation_ = 0;
    kplay_emu_dim finished_block_{};  // one that returned, for the message
    const char* file_ = "";
    int line_ = 0;
    std::function<void(const std::string&, const char*, int)> deadlock_;
};

}  // namespace kplay
