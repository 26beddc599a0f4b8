// Guarded fiber stacks, pooled per worker; the sanitizer's fiber hooks, found at run time.
#include "emu/fiber_stacks.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <new>

namespace kplay {

namespace {

size_t page() {
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

// Spare stacks a pool keeps once the blocks that used them have returned: a block's worth of fiber
// threads. More resident blocks (waiting ones) take more, and give back what exceeds this.
constexpr size_t kSpareStacks = 1024;

}  // namespace

StackPool::~StackPool() {
    for (void* base : free_) munmap(base, kFiberStackBytes + page());
}

boost::context::stack_context StackPool::take() {
    void* base;
    if (!free_.empty()) {
        base = free_.back();
        free_.pop_back();
    } else {
        base = mmap(nullptr, kFiberStackBytes + page(), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) throw std::bad_alloc();
        mprotect(base, page(), PROT_NONE);  // the guard: a stack overflow faults instead of corrupting
    }
    boost::context::stack_context stack;
    stack.size = kFiberStackBytes;
    stack.sp = static_cast<char*>(base) + page() + kFiberStackBytes;
    last_taken = stack;
    return stack;
}

void StackPool::give_back(boost::context::stack_context& stack) {
    void* base = static_cast<char*>(stack.sp) - kFiberStackBytes - page();
    if (free_.size() < kSpareStacks)
        free_.push_back(base);
    else
        munmap(base, kFiberStackBytes + page());
}

FiberNotes::FiberNotes() {
    start = reinterpret_cast<decltype(start)>(dlsym(RTLD_DEFAULT, "__sanitizer_start_switch_fiber"));
    finish = reinterpret_cast<decltype(finish)>(dlsym(RTLD_DEFAULT, "__sanitizer_finish_switch_fiber"));
    if (!start || !finish) start = nullptr, finish = nullptr;
}

const FiberNotes& fiber_notes() {
    static const FiberNotes notes;
    return notes;
}

}  // namespace kplay
