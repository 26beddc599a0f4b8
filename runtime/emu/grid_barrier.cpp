// A counting barrier over blocks, with the one way it can never release.
#include "emu/grid_barrier.hpp"

#include "emu/message_names.hpp"

namespace kplay {

GridBarrier::GridBarrier(unsigned long long blocks, std::function<void(const std::string&, const char*, int)> deadlock)
    : blocks_(blocks), deadlock_(std::move(deadlock)) {}

void GridBarrier::check_deadlock_locked() {
    if (arrived_ == 0 || finished_ == 0 || arrived_ + finished_ != blocks_) return;
    deadlock_("this_grid().sync() at " + std::string(file_) + ":" + std::to_string(line_) + " can never release: " +
                  std::to_string(arrived_) + " of " + std::to_string(blocks_) + " blocks wait there and " + std::to_string(finished_) +
                  " (block " + dim_text(finished_block_) + " among them) have already returned; every thread of the grid must reach it",
              file_, line_);
}

void GridBarrier::arrive_and_wait(const kplay_emu_dim&, const char* file, int line) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (arrived_ == 0) file_ = file, line_ = line;
    const unsigned long long generation = generation_;
    if (++arrived_ + finished_ == blocks_ && finished_ == 0) {
        arrived_ = 0;
        ++generation_;
        released_.notify_all();
        return;
    }
    check_deadlock_locked();
    released_.wait(lock, [&] { return generation_ != generation; });
}

void GridBarrier::block_finished(const kplay_emu_dim& block) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_++ == 0) finished_block_ = block;
    check_deadlock_locked();
}

}  // namespace kplay
