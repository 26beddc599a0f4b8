// Plain calls, fibers, barriers, warp collectives, yields and the grid barrier for one block at a time.
#include "emu/block_scheduler.hpp"

#include "emu/access_tracker.hpp"

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

#include "base/error.hpp"
#include "emu/directed_rounding.hpp"
#include "emu/grid_barrier.hpp"
#include "emu/message_names.hpp"
#include "emu/warp_collective.hpp"

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

// runnable: none (not started, or released) and yield (it polls for others); waiting: the rest.
enum class Wait { none, yield, barrier, warp, grid, done };

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
    LaneRequest request;  // a pending warp collective
    unsigned long long result = 0;
    int barrier_op = KPLAY_BARRIER_SYNC, predicate = 0;  // a pending barrier, and what it returns
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
CodeRange g_kernel_code;  // where preemption may switch a thread out

// How many threads of the block wait where, after a round.
struct Census {
    size_t live = 0, at_barrier = 0, at_warp = 0, at_grid = 0;
};

}  // namespace

struct BlockScheduler::Impl {
    EmulatedKernel kernel;
    void** args;
    LaunchGeometry geometry;
    ThreadOrder order;
    std::mt19937_64 random;
    uint64_t seed = 1;
    BlockEvents events;
    GridBarrier* grid = nullptr;
    AccessTracker* tracker = nullptr;  // a tracked launch's bookkeeping, else null
    kplay_emu_block block{};
    StackPool stacks;
    std::vector<ThreadSlot> slots;
    std::vector<size_t> resume_order;
    size_t running = 0;  // index of the thread now running
    const FiberNotes& notes = fiber_notes();
    const void* scheduler_stack = nullptr;  // the worker's own stack, as the sanitizer knows it
    size_t scheduler_stack_size = 0;
    bool fiber_mode = false;  // some thread of this block has waited: every thread now has its own fiber
    uint64_t switches = 0;    // threads started or resumed so far; the preemption timer compares it
    uint64_t switches_at_tick = ~0ull;

    std::string where(const ThreadSlot& slot) const { return thread_name(slot.state.thread_idx, block.block_idx); }
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
        ++switches;
        kernel.set_thread(&me.state);
        tls_thread = &me.state;
        me.sink = std::move(sink);
        kernel.entry(args);
        me.wait = Wait::done;
        sink = std::move(me.sink);
    }

    // A fiber starts with thread `index` and, until some thread of the block has waited, goes on with the
    // threads not yet started as plain calls. When one of them waits (a barrier, a warp collective, a
    // yield) the fiber stays suspended in it and the block switches to fiber mode: every thread not yet
    // started then gets a fiber of its own. A block without barriers thus costs one fiber, not one per thread.
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
        slot.state.fences = 0;
        if (!slot.started) slot.fiber = make_fiber(index);
        running = index;
        ++switches;
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

    Census census() const {
        Census c;
        for (const ThreadSlot& slot : slots) {
            if (slot.wait == Wait::done) continue;
            ++c.live;
            if (slot.wait == Wait::barrier) ++c.at_barrier;
            if (slot.wait == Wait::warp) ++c.at_warp;
            if (slot.wait == Wait::grid) ++c.at_grid;
        }
        return c;
    }

    static LaneState lane_state(Wait wait) {
        switch (wait) {
            case Wait::warp: return LaneState::at_warp_op;
            case Wait::barrier:
            case Wait::grid: return LaneState::blocked;
            case Wait::done: return LaneState::gone;
            default: return LaneState::running;
        }
    }

    // Of the collectives that released, only __syncwarp (and a tile's sync, which calls it) orders memory
    // between the lanes (CUDA's memory model): shuffles, votes and reductions exchange registers.
    void note_warp_syncs(unsigned warp, const WarpLanes& lanes, unsigned done) {
        unsigned synced = 0;
        for (unsigned lane = 0; lane < 32; ++lane)
            if ((done & (1u << lane)) && lanes.request[lane].op == KPLAY_WARP_SYNC) synced |= 1u << lane;
        // Lanes that passed different masks to one __syncwarp met (warp_collective.hpp): one group per mask.
        while (synced) {
            const unsigned lane = static_cast<unsigned>(__builtin_ctz(synced));
            const unsigned group = (lanes.request[lane].mask | (1u << lane)) & synced;
            tracker->warp_synced(warp, group);
            synced &= ~group;
        }
    }

    bool release_warps() {
        bool released = false;
        const size_t threads = slots.size();
        for (size_t first = 0; first < threads; first += 32) {
            const size_t count = std::min<size_t>(32, threads - first);
            bool any = false;
            for (size_t lane = 0; lane < count && !any; ++lane) any = slots[first + lane].wait == Wait::warp;
            if (!any) continue;
            WarpLanes lanes;
            for (size_t lane = 0; lane < 32; ++lane) {
                lanes.state[lane] = lane < count ? lane_state(slots[first + lane].wait) : LaneState::gone;
                if (lane < count) lanes.request[lane] = slots[first + lane].request;
            }
            unsigned long long results[32] = {};
            const unsigned done = release_warp_collectives(lanes, results);
            if (done && tracker) note_warp_syncs(static_cast<unsigned>(first / 32), lanes, done);
            for (size_t lane = 0; lane < count; ++lane)
                if (done & (1u << lane)) {
                    slots[first + lane].result = results[lane];
                    slots[first + lane].wait = Wait::none;
                    released = true;
                }
        }
        return released;
    }

    // Every live thread waits at __syncthreads: release it (with the counting forms' result), or report
    // that it never can because some threads have returned.
    void release_barrier(const Census& c) {
        const size_t threads = slots.size();
        const ThreadSlot* first_waiting = nullptr;
        bool one_site = true;
        int count = 0;
        for (const ThreadSlot& slot : slots)
            if (slot.wait == Wait::barrier) {
                if (!first_waiting) first_waiting = &slot;
                else if (slot.line != first_waiting->line || slot.file != first_waiting->file) one_site = false;
                count += slot.predicate != 0;
            }
        if (c.live < threads)
            events.fail("deadlock",
                        "__syncthreads() at " + site(first_waiting->file, first_waiting->line) + " can never release in block " +
                            dim_text(block.block_idx) + ": " + std::to_string(c.live) + " of " + std::to_string(threads) +
                            " threads wait there and the other " + std::to_string(threads - c.live) +
                            " have already returned (a barrier inside a branch not every thread takes)",
                        first_waiting->file, first_waiting->line);
        if (!one_site) {
            std::map<std::string, size_t> sites;
            for (const ThreadSlot& slot : slots)
                if (slot.wait == Wait::barrier) ++sites[site(slot.file, slot.line)];
            std::string text = "block " + dim_text(block.block_idx) + ": threads met at different __syncthreads() calls (";
            bool first = true;
            for (const auto& [where_text, n] : sites) {
                text += (first ? "" : ", ") + std::to_string(n) + " at " + where_text;
                first = false;
            }
            events.warn(text + "); each barrier should be reached by the whole block");
        }
        for (ThreadSlot& slot : slots) {
            if (slot.wait != Wait::barrier) continue;
            switch (slot.barrier_op) {
                case KPLAY_BARRIER_COUNT: slot.predicate = count; break;
                case KPLAY_BARRIER_AND: slot.predicate = count == static_cast<int>(c.live); break;
                case KPLAY_BARRIER_OR: slot.predicate = count > 0; break;
                default: slot.predicate = 0; break;
            }
            slot.wait = Wait::none;
        }
        if (tracker) tracker->barrier();
    }

    // Every live thread waits at this_grid().sync(): this block arrives, and goes on when all have.
    void release_grid(const Census& c) {
        const size_t threads = slots.size();
        const ThreadSlot* first = nullptr;
        for (const ThreadSlot& slot : slots)
            if (slot.wait == Wait::grid && !first) first = &slot;
        if (c.live < threads)
            events.fail("deadlock",
                        "this_grid().sync() at " + site(first->file, first->line) + " can never release: in block " +
                            dim_text(block.block_idx) + " " + std::to_string(c.live) + " of " + std::to_string(threads) +
                            " threads wait there and the other " + std::to_string(threads - c.live) + " have already returned",
                        first->file, first->line);
        grid->arrive_and_wait(block.block_idx, first->file, first->line);
        for (ThreadSlot& slot : slots)
            if (slot.wait == Wait::grid) slot.wait = Wait::none;
    }

    // Nothing ran and nothing could be released: say who waits where.
    [[noreturn]] void report_deadlock(const Census& c) {
        auto first_at = [&](Wait wait) -> const ThreadSlot* {
            for (const ThreadSlot& slot : slots)
                if (slot.wait == wait) return &slot;
            return nullptr;
        };
        std::string parts;
        const ThreadSlot* stuck = nullptr;
        auto add = [&](size_t n, Wait wait, const std::string& what) {
            const ThreadSlot* slot = first_at(wait);
            if (n == 0 || !slot) return;
            if (!stuck) stuck = slot;
            parts += (parts.empty() ? "" : " and ") + std::to_string(n) + " " + what + " (first: " +
                     (wait == Wait::warp ? where(*slot) + " at " : std::string()) + site(slot->file, slot->line) + ")";
        };
        add(c.at_warp, Wait::warp, "threads wait at a warp operation");
        add(c.at_barrier, Wait::barrier, "at __syncthreads()");
        add(c.at_grid, Wait::grid, "at this_grid().sync()");
        events.fail("deadlock", "block " + dim_text(block.block_idx) + " cannot go on: " + parts, stuck ? stuck->file : "",
                    stuck ? stuck->line : 0);
        std::abort();  // fail does not return
    }

    void start(kplay_emu_dim block_idx) {
        block.block_idx = block_idx;
        const size_t threads = static_cast<size_t>(block.block_dim.x) * block.block_dim.y * block.block_dim.z;
        if (block.dynamic_smem) std::memset(block.dynamic_smem, 0xff, block.dynamic_smem_bytes);  // poison: NaN as floats
        // The slots are reused from block to block (every thread of the last one has ended, so its fibers
        // are gone): setting what a thread starts with costs less than constructing them anew, which a
        // block of short threads feels.
        slots.resize(threads);
        for (size_t i = 0; i < threads; ++i) {
            ThreadSlot& slot = slots[i];
            slot.state = {};
            slot.state.thread_idx = {static_cast<unsigned>(i % block.block_dim.x),
                                     static_cast<unsigned>((i / block.block_dim.x) % block.block_dim.y),
                                     static_cast<unsigned>(i / (static_cast<size_t>(block.block_dim.x) * block.block_dim.y))};
            slot.state.block = &block;
            slot.wait = Wait::none;
            slot.started = false;
        }
        fiber_mode = false;
        if (tracker) tracker->begin_block(block_idx);
        resume_order.resize(threads);
        for (size_t i = 0; i < threads; ++i) resume_order[i] = order == ThreadOrder::reverse ? threads - 1 - i : i;
        if (order == ThreadOrder::random) std::shuffle(resume_order.begin(), resume_order.end(), random);
    }

    void run(kplay_emu_dim block_idx) {
        start(block_idx);
        tls_scheduler = this;
        for (;;) {
            bool ran = false;
            for (size_t index : resume_order) {
                const Wait wait = slots[index].wait;
                if (wait != Wait::none && wait != Wait::yield) continue;
                resume(index);
                ran = true;
            }
            const Census c = census();
            if (c.live == 0) break;
            bool released = c.at_warp > 0 && release_warps();
            if (c.at_barrier > 0 && c.at_barrier == c.live) {
                release_barrier(c);
                released = true;
            } else if (c.at_grid > 0 && c.at_grid == c.live) {
                release_grid(c);
                released = true;
            }
            // A thread that yielded polls for another: it runs again, and what it waits for may yet happen.
            if (!released && !ran) report_deadlock(c);
        }
        if (grid) grid->block_finished(block_idx);
        if (tracker) tracker->end_block(block_idx);
        tls_scheduler = nullptr;
    }
};

namespace {

ThreadSlot& running_slot(BlockScheduler::Impl* s) { return s->slots[s->running]; }

int host_sync_threads(int op, int predicate, const char* file, int line) {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = running_slot(s);
    slot.wait = Wait::barrier;
    slot.barrier_op = op;
    slot.predicate = predicate;
    slot.file = file;
    slot.line = line;
    s->suspend(slot);
    return slot.predicate;
}

unsigned long long host_warp_op(int op, unsigned mask, unsigned long long value, int operand, int width, const char* file, int line) {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = running_slot(s);
    slot.wait = Wait::warp;
    slot.request = {op, mask, value, operand, width, file, line};
    slot.file = file;
    slot.line = line;
    s->suspend(slot);
    return slot.result;
}

void host_grid_sync(const char* file, int line) {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = running_slot(s);
    if (!s->grid)
        s->events.fail("unsupported",
                       s->where(slot) + ": this_grid().sync() at " + s->site(file, line) +
                           " needs a cooperative launch (every block resident at once, as cudaLaunchCooperativeKernel "
                           "launches them); this launch is not cooperative",
                       file, line);
    slot.wait = Wait::grid;
    slot.file = file;
    slot.line = line;
    s->suspend(slot);
}

void host_yield() {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = running_slot(s);
    slot.wait = Wait::yield;
    s->suspend(slot);
}

// The preemption timer's signal, on the interrupted fiber's stack: a thread found running the kernel's
// own code at two ticks in a row is switched out as if it had yielded.
void preempt(void* context) {
    BlockScheduler::Impl* s = tls_scheduler;
    if (!s || !tls_thread || !g_kernel_code.contains(interrupted_pc(context))) return;
    if (s->switches_at_tick != s->switches) {
        s->switches_at_tick = s->switches;
        return;
    }
    host_yield();
}

int host_vprintf(const char* format, va_list args) {
    BlockScheduler::Impl* s = tls_scheduler;
    const ThreadSlot& slot = running_slot(s);
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
    const ThreadSlot& slot = running_slot(s);
    std::string message = s->where(slot) + ": ";
    if (std::string(kind) == "assert") message += "assertion `" + std::string(detail) + "` failed";
    else message += detail;
    s->events.fail(kind, message + " at " + s->site(file, line), file, line);
    std::abort();  // fail does not return; this keeps the compiler and the reader sure of it
}

// A tracked build's load or store: to the tracker of the block this worker runs.
void host_access(const void* address, unsigned size, unsigned flags, const void* pc) {
    BlockScheduler::Impl* s = tls_scheduler;
    if (s && s->tracker && tls_thread)
        // pc is the call's return address; one byte back is inside the call, on the access's own line.
        s->tracker->access(tls_thread->thread_idx, reinterpret_cast<uintptr_t>(address), size, flags,
                           pc ? reinterpret_cast<uintptr_t>(pc) - 1 : 0);
}

const kplay_emu_host kHostTable = {KPLAY_EMU_ABI_VERSION, host_sync_threads,     host_warp_op,          host_grid_sync, host_yield,
                                   host_vprintf,          host_fail,             emulated_round_arith, emulated_round_integer,
                                   host_access};

}  // namespace

BlockScheduler::BlockScheduler(EmulatedKernel kernel, void** args, LaunchGeometry geometry, ThreadOrder order, uint64_t seed,
                               unsigned char* dynamic_smem, size_t dynamic_smem_bytes, BlockEvents events, GridBarrier* grid)
    : impl_(std::make_unique<Impl>()) {
    impl_->kernel = kernel;
    impl_->args = args;
    impl_->geometry = geometry;
    impl_->order = order;
    impl_->seed = seed;
    impl_->events = std::move(events);
    impl_->grid = grid;
    impl_->block.block_dim = geometry.block;
    impl_->block.grid_dim = geometry.grid;
    impl_->block.dynamic_smem = dynamic_smem;
    impl_->block.dynamic_smem_bytes = dynamic_smem_bytes;
    impl_->block.cooperative = grid != nullptr;
}

BlockScheduler::~BlockScheduler() = default;

void BlockScheduler::track(AccessTracker* tracker) { impl_->tracker = tracker; }

void BlockScheduler::run_block(kplay_emu_dim block_idx) {
    // Seeded per block, so a random order is the same whichever worker runs the block.
    if (impl_->order == ThreadOrder::random)
        impl_->random.seed(impl_->seed ^ (block_idx.x * 0x9E3779B97F4A7C15ull + block_idx.y * 0xC2B2AE3D27D4EB4Full + block_idx.z));
    impl_->run(block_idx);
}

const kplay_emu_host* BlockScheduler::host_table() { return &kHostTable; }

const kplay_emu_thread* BlockScheduler::current_thread() { return tls_thread; }

void BlockScheduler::enable_preemption(CodeRange kernel_code) {
    g_kernel_code = kernel_code;
    install_preemption_handler(preempt);
}

}  // namespace kplay
