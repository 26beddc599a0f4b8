// The stacks of a worker's fibers (one per CUDA thread that waits), and the sanitizer's notes of a switch.
//
// Stacks are mapped with MAP_NORESERVE (only the pages a thread touches cost memory) and end in a
// PROT_NONE guard page, so an overflow faults instead of corrupting the next stack. A worker reuses
// them from block to block, keeping a few spare: each is two of the process's mappings.
#pragma once

#include <boost/context/fiber.hpp>
#include <cstddef>
#include <vector>

namespace kplay {

constexpr size_t kFiberStackBytes = 256 * 1024;  // local arrays of a few KiB per thread fit with room to spare

class StackPool {
public:
    StackPool() = default;
    StackPool(const StackPool&) = delete;  // owns its mappings
    StackPool& operator=(const StackPool&) = delete;
    ~StackPool();
    boost::context::stack_context take();
    void give_back(boost::context::stack_context& stack);
    boost::context::stack_context last_taken;  // the stack of the fiber made last (for the sanitizer's fiber notes)

private:
    std::vector<void*> free_;
};

struct PooledStack {
    StackPool* pool;
    boost::context::stack_context allocate() { return pool->take(); }
    void deallocate(boost::context::stack_context& stack) noexcept { pool->give_back(stack); }
};

// AddressSanitizer must be told when execution moves to another stack, or it mistakes a fiber's
// stack for an overflow of the worker's. The hooks exist only in a thorough worker (ASan preloaded).
struct FiberNotes {
    void (*start)(void** fake_stack_save, const void* bottom, size_t size) = nullptr;
    void (*finish)(void* fake_stack_save, const void** bottom_old, size_t* size_old) = nullptr;
    FiberNotes();
};
const FiberNotes& fiber_notes();

}  // namespace kplay
