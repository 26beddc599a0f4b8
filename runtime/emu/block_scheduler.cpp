// Plain calls, fibers, barriers and warp collectives for one block at a time.
#include "emu/block_scheduler.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <boost/context/fiber.hpp>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <map>
#include <random>

#include "emu/message_names.hpp"
#include "base/error.hpp"

namespace kplay {

namespace ctx = boost::context;

namespace {

constexpr size_t kStackBytes = 256 * 1024;  // local arrays of a few KiB per thread fit with room to spare

// Stacks with a PROT_NONE page below them, reused across threads and blocks of one worker.
class StackPool {
public:
    StackPool() = default;
    StackPool(const StackPool&) = delete;  // owns its mappings
    StackPool& operator=(const StackPool&) = delete;
    ctx::stack_context last_taken;  // the stack of the fiber made last (for the sanitizer's fiber notes)
    ~StackPool() {
        for (void* base : all_) munmap(base, kStackBytes + page());
    }
    ctx::stack_context take() {
        void* base;
        if (!free_.empty()) {
            base = free_.back();
            free_.pop_back();
        } else {
            base = mmap(nullptr, kStackBytes + page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (base == MAP_FAILED) throw std::bad_alloc();
            mprotect(base, page(), PROT_NONE);  // the guard: a stack overflow faults instead of corrupting
            all_.push_back(base);
        }
        ctx::stack_context stack;
        stack.size = kStackBytes;
        stack.sp = static_cast<char*>(base) + page() + kStackBytes;
        last_taken = stack;
        return stack;
    }
    void give_back(ctx::stack_context& stack) { free_.push_back(static_cast<char*>(stack.sp) - kStackBytes - page()); }
    static size_t page() {
        static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        return size;
    }

private:
    std::vector<void*> free_, all_;
};

struct PooledStack {
    StackPool* pool;
    ctx::stack_context allocate() { return pool->take(); }
    void deallocate(ctx::stack_context& stack) noexcept { pool->give_back(stack); }
};

enum class Wait { none, barrier, warp, done };

struct ThreadSlot {
    kplay_emu_thread state{};
    ctx::fiber fiber;  // this thread, while suspended
    ctx::fiber sink;   // the scheduler, while this thread runs
    const void* stack_bottom = nullptr;  // for the sanitizer's fiber notes
    size_t stack_size = 0;
    Wait wait = Wait::none;
    bool started = false;
    const char* file = "";
    int line = 0;
    // A pending warp collective.
    int op = 0, operand = 0, width = 32;
    unsigned mask = 0;
    unsigned long long value = 0, result = 0;
};

// AddressSanitizer must be told when execution moves to another stack, or it mistakes a fiber's
// stack for an overflow of the worker's. The hooks exist only in a thorough worker (ASan preloaded).
struct FiberNotes {
    void (*start)(void** fake_stack_save, const void* bottom, size_t size) = nullptr;
    void (*finish)(void* fake_stack_save, const void** bottom_old, size_t* size_old) = nullptr;
    FiberNotes() {
        start = reinterpret_cast<decltype(start)>(dlsym(RTLD_DEFAULT, "__sanitizer_start_switch_fiber"));
        finish = reinterpret_cast<decltype(finish)>(dlsym(RTLD_DEFAULT, "__sanitizer_finish_switch_fiber"));
        if (!start || !finish) start = nullptr, finish = nullptr;
    }
};
const FiberNotes& fiber_notes() {
    static const FiberNotes notes;
    return notes;
}

thread_local BlockScheduler::Impl* tls_scheduler = nullptr;
thread_local const kplay_emu_thread* tls_thread = nullptr;

}  // namespace

struct BlockScheduler::Impl {
    EmulatedKernel kernel;
    void** args;
    LaunchGeometry geometry;
    ThreadOrder order;
    std::mt19937_64 random;
    uint64_t seed = 1;
    BlockEvents events;
    kplay_emu_block block{};
    StackPool stacks;
    std::vector<ThreadSlot> slots;
    std::vector<size_t> resume_order;
    size_t running = 0;  // index of the thread now running
    const FiberNotes& notes = fiber_notes();
    const void* scheduler_stack = nullptr;  // the worker's own stack, as the sanitizer knows it
    size_t scheduler_stack_size = 0;
    bool fiber_mode = false;  // some thread of this block has waited: every thread now has its own fiber

    std::string where(const ThreadSlot& slot) const {
        return thread_name(slot.state.thread_idx, block.block_idx);
    }
    std::string site(const char* file, int line) const { return std::string(file) + ":" + std::to_string(line); }

    // Called on the running thread's fiber: hand control back until the scheduler resumes it.
    void suspend(ThreadSlot& slot) {
        tls_thread = nullptr;
        void* fake_stack = nullptr;
        if (notes.start) notes.start(&fake_stack, scheduler_stack, scheduler_stack_size);
        slot.sink = std::move(slot.sink).resume();
        if (notes.finish) notes.finish(fake_stack, &scheduler_stack, &scheduler_stack_size);
        tls_scheduler = this;
        tls_thread = &slot.state;
    }

    // Runs thread `t` to its end on the current fiber; `sink` (the scheduler's side) travels with it,
    // so that it can wait.
    void run_thread(size_t t, ctx::fiber& sink) {
        ThreadSlot& me = slots[t];
        me.started = true;
        running = t;
        kernel.set_thread(&me.state);
        tls_thread = &me.state;
        me.sink = std::move(sink);
        kernel.entry(args);
        me.wait = Wait::done;
        sink = std::move(me.sink);
    }

    // A fiber starts with thread `index` and, until some thread of the block has waited, goes on with the
    // threads not yet started as plain calls. When one of them waits (a barrier, a warp collective) the
    // fiber stays suspended in it and the block switches to fiber mode: every thread not yet started then
    // gets a fiber of its own. A block without barriers thus costs one fiber, not one per thread.
    ctx::fiber make_fiber(size_t index) {
        ctx::fiber fiber(std::allocator_arg, PooledStack{&stacks}, [this, index](ctx::fiber&& sink) {
            if (notes.finish) notes.finish(nullptr, &scheduler_stack, &scheduler_stack_size);
            run_thread(index, sink);
            for (size_t i = 0; i < resume_order.size() && !fiber_mode; ++i)
                if (!slots[resume_order[i]].started) run_thread(resume_order[i], sink);
            tls_thread = nullptr;
            if (notes.start) notes.start(nullptr, scheduler_stack, scheduler_stack_size);  // this fiber ends
            return std::move(sink);
        });
        slots[index].stack_bottom = static_cast<char*>(stacks.last_taken.sp) - stacks.last_taken.size;
        slots[index].stack_size = stacks.last_taken.size;
        slots[index].started = true;
        return fiber;
    }

    void resume(size_t index) {
        ThreadSlot& slot = slots[index];
        slot.wait = Wait::none;
        if (!slot.started) slot.fiber = make_fiber(index);
        running = index;
        kernel.set_thread(&slot.state);
        tls_thread = &slot.state;
        void* fake_stack = nullptr;
        if (notes.start) notes.start(&fake_stack, slot.stack_bottom, slot.stack_size);
        ctx::fiber waiting = std::move(slot.fiber).resume();
        if (notes.finish) notes.finish(fake_stack, nullptr, nullptr);
        tls_thread = nullptr;
        if (!waiting) return;  // the fiber ended
        // Thread `running` waits on this fiber: from now on the fiber is that thread's, and every other
        // thread gets its own.
        ThreadSlot& waiter = slots[running];
        waiter.fiber = std::move(waiting);
        waiter.stack_bottom = slot.stack_bottom;
        waiter.stack_size = slot.stack_size;
        fiber_mode = true;
    }

    void release_warp(size_t first, size_t count) {
        // Lanes of this warp that are live (all of them wait at a collective now).
        unsigned long long ballot = 0;
        bool any = false, all = true;
        for (size_t lane = 0; lane < count; ++lane) {
            const ThreadSlot& s = slots[first + lane];
            if (s.wait != Wait::warp) continue;
            if (s.value) ballot |= 1ull << lane;
            any = any || s.value;
            all = all && s.value;
        }
        for (size_t lane = 0; lane < count; ++lane) {
            ThreadSlot& s = slots[first + lane];
            if (s.wait != Wait::warp) continue;
            const int width = s.width >= 1 && s.width <= 32 ? s.width : 32;
            const size_t group = lane & ~static_cast<size_t>(width - 1);
            size_t source = lane;
            switch (s.op) {
                case KPLAY_WARP_SHFL: source = group + static_cast<size_t>(s.operand) % width; break;
                case KPLAY_WARP_SHFL_UP:
                    if (s.operand >= 0 && lane - group >= static_cast<size_t>(s.operand)) source = lane - s.operand;
                    break;
                case KPLAY_WARP_SHFL_DOWN:
                    if (s.operand >= 0 && lane - group + s.operand < static_cast<size_t>(width)) source = lane + s.operand;
                    break;
                case KPLAY_WARP_SHFL_XOR: {
                    const size_t other = lane ^ static_cast<size_t>(s.operand & 31);
                    if ((other & ~static_cast<size_t>(width - 1)) == group) source = other;
                    break;
                }
                default: break;
            }
            if (source >= count || slots[first + source].wait != Wait::warp) source = lane;  // no such lane: own value
            switch (s.op) {
                case KPLAY_WARP_BALLOT: s.result = ballot & s.mask; break;
                case KPLAY_WARP_ANY: s.result = any; break;
                case KPLAY_WARP_ALL: s.result = all; break;
                case KPLAY_WARP_ACTIVE: s.result = ballot | ((count >= 64 ? ~0ull : (1ull << count) - 1)); break;
                case KPLAY_WARP_SYNC: s.result = 0; break;
                default: s.result = slots[first + source].value; break;
            }
        }
        for (size_t lane = 0; lane < count; ++lane)  // only now: the results above read every lane's state
            if (slots[first + lane].wait == Wait::warp) slots[first + lane].wait = Wait::none;
    }

    void run(kplay_emu_dim block_idx) {
        block.block_idx = block_idx;
        const size_t threads = static_cast<size_t>(block.block_dim.x) * block.block_dim.y * block.block_dim.z;
        if (block.dynamic_smem) std::memset(block.dynamic_smem, 0xff, block.dynamic_smem_bytes);  // poison: NaN as floats
        slots.clear();
        slots.resize(threads);
        for (size_t i = 0; i < threads; ++i) {
            slots[i].state.thread_idx = {static_cast<unsigned>(i % block.block_dim.x),
                                         static_cast<unsigned>((i / block.block_dim.x) % block.block_dim.y),
                                         static_cast<unsigned>(i / (static_cast<size_t>(block.block_dim.x) * block.block_dim.y))};
            slots[i].state.block = &block;
        }
        fiber_mode = false;
        resume_order.resize(threads);
        for (size_t i = 0; i < threads; ++i) resume_order[i] = order == ThreadOrder::reverse ? threads - 1 - i : i;
        if (order == ThreadOrder::random) std::shuffle(resume_order.begin(), resume_order.end(), random);

        tls_scheduler = this;
        for (;;) {
            bool ran = false;
            for (size_t index : resume_order) {
                ThreadSlot& slot = slots[index];
                if (slot.wait != Wait::none) continue;
                resume(index);
                ran = true;
            }
            if (ran) continue;
            // Nobody can run: release what can be released, or report why nothing can.
            size_t live = 0, at_barrier = 0, at_warp = 0;
            for (const ThreadSlot& slot : slots) {
                if (slot.wait == Wait::done) continue;
                ++live;
                if (slot.wait == Wait::barrier) ++at_barrier;
                if (slot.wait == Wait::warp) ++at_warp;
            }
            if (live == 0) break;
            bool released = false;
            for (size_t first = 0; first < threads; first += 32) {
                const size_t count = std::min<size_t>(32, threads - first);
                size_t lanes_live = 0, lanes_waiting = 0;
                for (size_t lane = 0; lane < count; ++lane) {
                    const Wait w = slots[first + lane].wait;
                    if (w != Wait::done) ++lanes_live;
                    if (w == Wait::warp) ++lanes_waiting;
                }
                if (lanes_waiting > 0 && lanes_waiting == lanes_live) {
                    release_warp(first, count);
                    released = true;
                }
            }
            if (released) continue;
            if (at_barrier == live) {
                // The common case, every thread at one barrier, is checked without building strings.
                const ThreadSlot* first_waiting = nullptr;
                bool one_site = true;
                for (const ThreadSlot& slot : slots)
                    if (slot.wait == Wait::barrier) {
                        if (!first_waiting) first_waiting = &slot;
                        else if (slot.line != first_waiting->line || slot.file != first_waiting->file) one_site = false;
                    }
                std::map<std::string, size_t> sites;
                if (!one_site)
                    for (const ThreadSlot& slot : slots)
                        if (slot.wait == Wait::barrier) ++sites[site(slot.file, slot.line)];
                if (live < threads) {
                    events.fail("deadlock",
                                "__syncthreads() at " + site(first_waiting->file, first_waiting->line) + " can never release in block " +
                                    dim_text(block.block_idx) + ": " + std::to_string(live) + " of " + std::to_string(threads) +
                                    " threads wait there and the other " + std::to_string(threads - live) +
                                    " have already returned (a barrier inside a branch not every thread takes)",
                                first_waiting->file, first_waiting->line);
                }
                if (sites.size() > 1) {
                    std::string text = "block " + dim_text(block.block_idx) + ": threads met at different __syncthreads() calls (";
                    bool first = true;
                    for (const auto& [where_text, count] : sites) {
                        text += (first ? "" : ", ") + std::to_string(count) + " at " + where_text;
                        first = false;
                    }
                    events.warn(text + "); each barrier should be reached by the whole block");
                }
                for (ThreadSlot& slot : slots)
                    if (slot.wait == Wait::barrier) slot.wait = Wait::none;
                continue;
            }
            // Some threads wait at a barrier while others wait at a warp collective that cannot complete.
            const ThreadSlot* stuck = nullptr;
            for (const ThreadSlot& slot : slots)
                if (slot.wait == Wait::warp) {
                    stuck = &slot;
                    break;
                }
            const ThreadSlot* barrier = nullptr;
            for (const ThreadSlot& slot : slots)
                if (slot.wait == Wait::barrier) {
                    barrier = &slot;
                    break;
                }
            events.fail("deadlock",
                        "block " + dim_text(block.block_idx) + " cannot go on: " + std::to_string(at_warp) +
                            " threads wait at a warp operation (first: " + where(*stuck) + " at " + site(stuck->file, stuck->line) + ") and " +
                            std::to_string(at_barrier) + " at __syncthreads() (first: " + site(barrier->file, barrier->line) + ")",
                        stuck->file, stuck->line);
        }
        tls_scheduler = nullptr;
    }
};

namespace {

void host_sync_threads(const char* file, int line) {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = s->slots[s->running];
    slot.wait = Wait::barrier;
    slot.file = file;
    slot.line = line;
    s->suspend(slot);
}

unsigned long long host_warp_op(int op, unsigned mask, unsigned long long value, int operand, int width, const char* file, int line) {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = s->slots[s->running];
    slot.wait = Wait::warp;
    slot.op = op;
    slot.mask = mask;
    slot.value = value;
    slot.operand = operand;
    slot.width = width;
    slot.file = file;
    slot.line = line;
    s->suspend(slot);
    return slot.result;
}

int host_vprintf(const char* format, va_list args) {
    BlockScheduler::Impl* s = tls_scheduler;
    const ThreadSlot& slot = s->slots[s->running];
    char text[1024];
    const int written = std::vsnprintf(text, sizeof text, format, args);
    const std::string tag = "[block " + dim_text(s->block.block_idx) + " thread " + dim_text(slot.state.thread_idx) + "] ";
    std::string body(text, std::min<size_t>(written < 0 ? 0 : static_cast<size_t>(written), sizeof text - 1));
    // One output line per line of text; a trailing newline ends the last one.
    size_t start = 0;
    while (start < body.size()) {
        const size_t end = body.find('\n', start);
        s->events.print(tag + body.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return written;
}

void host_fail(const char* kind, const char* detail, const char* file, int line) {
    BlockScheduler::Impl* s = tls_scheduler;
    const ThreadSlot& slot = s->slots[s->running];
    std::string message = s->where(slot) + ": ";
    if (std::string(kind) == "assert") message += "assertion `" + std::string(detail) + "` failed";
    else message += detail;
    s->events.fail(kind, message + " at " + s->site(file, line), file, line);
    std::abort();  // fail does not return; this keeps the compiler and the reader sure of it
}

const kplay_emu_host kHostTable = {KPLAY_EMU_ABI_VERSION, host_sync_threads, host_warp_op, host_vprintf, host_fail};

}  // namespace

BlockScheduler::BlockScheduler(EmulatedKernel kernel, void** args, LaunchGeometry geometry, ThreadOrder order, uint64_t seed,
                               unsigned char* dynamic_smem, size_t dynamic_smem_bytes, BlockEvents events)
    : impl_(std::make_unique<Impl>()) {
    impl_->kernel = kernel;
    impl_->args = args;
    impl_->geometry = geometry;
    impl_->order = order;
    impl_->seed = seed;
    impl_->events = std::move(events);
    impl_->block.block_dim = geometry.block;
    impl_->block.grid_dim = geometry.grid;
    impl_->block.dynamic_smem = dynamic_smem;
    impl_->block.dynamic_smem_bytes = dynamic_smem_bytes;
}

BlockScheduler::~BlockScheduler() = default;

void BlockScheduler::run_block(kplay_emu_dim block_idx) {
    // Seeded per block, so a random order is the same whichever worker runs the block.
    if (impl_->order == ThreadOrder::random)
        impl_->random.seed(impl_->seed ^ (block_idx.x * 0x9E3779B97F4A7C15ull + block_idx.y * 0xC2B2AE3D27D4EB4Full + block_idx.z));
    impl_->run(block_idx);
}

const kplay_emu_host* BlockScheduler::host_table() { return &kHostTable; }

const kplay_emu_thread* BlockScheduler::current_thread() { return tls_thread; }

}  // namespace kplay
