// Plain calls, fibers, barriers, warp collectives, yields and the grid barrier for one block at a time.
#include "emu/block_scheduler.hpp"

#include "emu/access_tracker.hpp"

#include <boost/context/fiber.hpp>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <deque>
#include <map>
#include <random>

#include "base/error.hpp"
#include "emu/block_residency.hpp"
#include "emu/block_threads.hpp"
#include "emu/directed_rounding.hpp"
#include "emu/fiber_stacks.hpp"
#include "emu/grid_barrier.hpp"
#include "emu/message_names.hpp"
#include "emu/warp_collective.hpp"

namespace kplay {

namespace ctx = boost::context;

namespace {

thread_local BlockScheduler::Impl* tls_scheduler = nullptr;
thread_local const kplay_emu_thread* tls_thread = nullptr;
CodeRange g_kernel_code;  // where preemption may switch a thread out

}  // namespace

struct BlockScheduler::Impl : BlockHost {
    EmulatedKernel kernel;
    void** args;
    LaunchGeometry geometry;
    ThreadOrder order;
    std::mt19937_64 random;
    uint64_t seed = 1;
    BlockEvents events;
    GridBarrier* grid = nullptr;
    AccessTracker* tracker = nullptr;  // a tracked launch's bookkeeping, else null
    Residency* residency = nullptr;
    kplay_emu_block shape{};  // every block's but its index
    kplay_emu_block block{};  // the running block's
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
    RoundStats stats;
    size_t live_threads = 0;  // of the running block, after its last round
    std::deque<ParkedBlock> parked;  // oldest first
    std::vector<ParkedBlock> spares;  // their vectors, kept for the next blocks
    unsigned char* static_shared = nullptr;  // this worker's thread-local __shared__ arrays
    size_t static_shared_bytes = 0;

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
        slot.poll.accessed = false;
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
        if (c.live < threads) warn_barrier_after_return(*first_waiting);
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

    // Every thread that has not returned waits at this __syncthreads(). A GPU since Volta releases it: PTX's
    // barrier waits for the non-exited threads of the warp and of the other warps, and a thread that exits
    // releases a barrier it alone held up (the CUDA Programming Guide: bar.sync "will not succeed until
    // reached by all non-exited threads in the block"), whether whole warps returned or some lanes of one.
    // CUDA C++ still leaves a __syncthreads() that not every thread reaches undefined: the run says so,
    // once. (A thread that skips the barrier and goes on running keeps it from releasing: a deadlock.)
    void warn_barrier_after_return(const ThreadSlot& waiter) {
        if (!residency->first_barrier_after_return()) return;
        size_t returned = 0, whole_warps = 0, lanes = 0;
        for (size_t first = 0; first < slots.size(); first += 32) {
            const size_t count = std::min<size_t>(32, slots.size() - first);
            size_t done = 0;
            for (size_t lane = 0; lane < count; ++lane) done += slots[first + lane].wait == Wait::done;
            returned += done;
            if (done == count) ++whole_warps;
            else lanes += done;
        }
        std::string which = std::to_string(whole_warps) + (whole_warps == 1 ? " whole warp" : " whole warps");
        if (lanes > 0) which = (whole_warps > 0 ? which + " and " : "") + std::to_string(lanes) + " lanes of warps whose other lanes wait there";
        events.warn("__syncthreads() at " + site(waiter.file, waiter.line) + " released in block " + dim_text(block.block_idx) + " with " +
                    std::to_string(returned) + " of its " + std::to_string(slots.size()) + " threads already returned (" + which +
                    "), as a GPU since Volta releases it (a barrier waits only for the threads that have not exited); CUDA leaves a "
                    "__syncthreads() that not every thread of the block reaches undefined, so keep every thread to the barrier "
                    "(if (i < n) { ... } around the work instead of an early return)");
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

    void start(kplay_emu_dim block_idx) override {
        // Seeded per block, so a random order is the same whichever worker runs the block.
        if (order == ThreadOrder::random)
            random.seed(seed ^ (block_idx.x * 0x9E3779B97F4A7C15ull + block_idx.y * 0xC2B2AE3D27D4EB4Full + block_idx.z));
        block = shape;
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
            slot.poll = {};
        }
        fiber_mode = false;
        live_threads = threads;
        if (tracker) tracker->begin_block(block_idx);
        resume_order.resize(threads);
        for (size_t i = 0; i < threads; ++i) resume_order[i] = order == ThreadOrder::reverse ? threads - 1 - i : i;
        if (order == ThreadOrder::random) std::shuffle(resume_order.begin(), resume_order.end(), random);
    }

    // Resumes every runnable thread once, then releases what can go.
    Round round() override {
        stats = {};
        bool ran = false;
        for (size_t index : resume_order) {
            const Wait wait = slots[index].wait;
            if (wait != Wait::none && wait != Wait::yield) continue;
            resume(index);
            ran = true;
        }
        const Census c = census();
        Round result;
        const bool returned = c.live < live_threads;
        live_threads = c.live;
        if (c.live == 0) {
            if (tracker) tracker->end_block(block.block_idx);
            result.done = true;
            return result;
        }
        const bool warps = c.at_warp > 0 && release_warps();
        bool barrier = false;
        if (c.at_barrier > 0 && c.at_barrier == c.live) {
            release_barrier(c);
            barrier = true;
        } else if (c.at_grid > 0 && c.at_grid == c.live) {
            release_grid(c);
            barrier = true;
        }
        // A thread that yielded polls for another: it runs again, and what it waits for may yet happen.
        if (!warps && !barrier && !ran) report_deadlock(c);
        result.moved = returned || barrier || stats.arrived || stats.changed;
        result.quiet = !result.moved && stats.polls > 0;
        result.certain = result.quiet && !stats.weak && !warps;
        return result;
    }

    // One block to its end, as a cooperative launch's worker runs its own.
    void run(kplay_emu_dim block_idx) {
        start(block_idx);
        tls_scheduler = this;
        while (!round().done) {
        }
        if (grid) grid->block_finished(block_idx);
        tls_scheduler = nullptr;
    }

    void exchange(ParkedBlock& p) {
        std::swap(block, p.block);
        slots.swap(p.slots);
        resume_order.swap(p.resume_order);
        std::swap(fiber_mode, p.fiber_mode);
    }
    // Every block of a worker has the same shared memory: a parked block's is kept aside.
    void copy_shared(std::vector<unsigned char>& saved, bool save) {
        const size_t dynamic = shape.dynamic_smem ? shape.dynamic_smem_bytes : 0;
        if (save) saved.resize(static_shared_bytes + dynamic);
        if (static_shared_bytes)
            std::memcpy(save ? saved.data() : static_shared, save ? static_shared : saved.data(), static_shared_bytes);
        if (dynamic)
            std::memcpy(save ? saved.data() + static_shared_bytes : shape.dynamic_smem, save ? shape.dynamic_smem : saved.data() + static_shared_bytes,
                        dynamic);
    }
    void park() override {
        ParkedBlock p;
        if (!spares.empty()) {
            p = std::move(spares.back());
            spares.pop_back();
        }
        copy_shared(p.shared, true);
        exchange(p);
        parked.push_back(std::move(p));
    }
    // The block parked longest takes the worker again (the one that had it returned or was parked).
    void unpark() override {
        ParkedBlock p = std::move(parked.front());
        parked.pop_front();
        exchange(p);
        copy_shared(p.shared, false);
        live_threads = census().live;
        spares.push_back(std::move(p));
        if (tracker) tracker->resume_block(block.block_idx);
    }

    // Where the blocks of this worker wait, for a stall's note.
    size_t parked_blocks() const override { return parked.size(); }
    void describe(StallNote& note) const override {
        std::vector<std::pair<const kplay_emu_block*, const std::vector<ThreadSlot>*>> blocks = {{&block, &slots}};
        for (const ParkedBlock& p : parked) blocks.emplace_back(&p.block, &p.slots);
        auto linear = [](const kplay_emu_block* b) {
            return (static_cast<uint64_t>(b->block_idx.z) * b->grid_dim.y + b->block_idx.y) * b->grid_dim.x + b->block_idx.x;
        };
        std::sort(blocks.begin(), blocks.end(), [&](const auto& a, const auto& b) { return linear(a.first) < linear(b.first); });
        for (const auto& [waiting, threads] : blocks) add_entry(note, *waiting, *threads);
    }
    static void add_entry(StallNote& note, const kplay_emu_block& waiting, const std::vector<ThreadSlot>& threads) {
        if (note.entries >= StallNote::kEntries) return;
        StallNote::Entry& entry = note.entry[note.entries++];
        entry.block = waiting.block_idx;
        for (const ThreadSlot& slot : threads) {
            if (slot.wait == Wait::done) continue;
            ++entry.live;
            if (slot.wait == Wait::yield) {
                ++entry.polling;
                if (!entry.pc) entry.pc = slot.poll.pc;
            } else if (!entry.line && slot.line > 0) {
                std::snprintf(entry.file, sizeof entry.file, "%s", slot.file);
                entry.line = slot.line;
            }
        }
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
    s->stats.arrived = true;
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
    s->stats.arrived = true;
    s->suspend(slot);
}

// A thread that polls for another yields. A named poll (`address`: an atomic's, or a tracked load's)
// says what it reads: the same value again means it still waits, another means something moved.
void poll_yield(BlockScheduler::Impl* s, ThreadSlot& slot, const void* address, unsigned long long value, uintptr_t pc) {
    ++s->stats.polls;
    PollState& poll = slot.poll;
    if (!address) {
        s->stats.weak = true;
    } else {
        if (poll.address && (poll.address != address || poll.value != value)) s->stats.changed = true;
        poll.address = address;
        poll.value = value;
    }
    poll.pc = pc;
    slot.wait = Wait::yield;
    s->suspend(slot);
}

// The prelude yields at a second fence, at __nanosleep, and when an atomic finds at its address the value
// it found twice before (having just reset spin_repeats): only that one names what it polls.
void host_yield() {
    BlockScheduler::Impl* s = tls_scheduler;
    ThreadSlot& slot = running_slot(s);
    kplay_emu_thread& thread = slot.state;
    const void* address = thread.fences < 2 && thread.spin_repeats == 0 ? thread.spin_address : nullptr;
    thread.spin_address = nullptr;  // a later __nanosleep must not name this atomic again
    poll_yield(s, slot, address, thread.spin_value, reinterpret_cast<uintptr_t>(__builtin_return_address(0)) - 1);
}

// The preemption timer's signal, on the interrupted fiber's stack: a thread found running the kernel's
// own code at two ticks in a row, or at one tick near where the timer switched it out last time (a
// spin again), is switched out as if it had yielded. A tracked thread that loads memory is left alone:
// its polls are seen in its loads (watch_load), at the same points at every run.
void preempt(void* context) {
    BlockScheduler::Impl* s = tls_scheduler;
    const uintptr_t pc = interrupted_pc(context);
    if (!s || !tls_thread || !g_kernel_code.contains(pc)) return;
    ThreadSlot& slot = running_slot(s);
    if (slot.poll.accessed) return;
    if (s->switches_at_tick != s->switches) {
        s->switches_at_tick = s->switches;
        const uintptr_t last = slot.poll.preempt_pc;
        if (last == 0 || (pc > last ? pc - last : last - pc) > 64) return;
    }
    slot.poll.preempt_pc = pc;
    poll_yield(s, slot, nullptr, 0, pc);
}

// A tracked thread that loads the same value from one address three times in a row, storing nothing
// between, polls it: it yields as an atomic's poll does.
void watch_load(BlockScheduler::Impl* s, ThreadSlot& slot, const void* address, unsigned size, unsigned flags, uintptr_t pc) {
    PollState& poll = slot.poll;
    poll.accessed = true;
    if (flags & KPLAY_ACCESS_WRITE) {
        poll.watch_address = nullptr;
        return;
    }
    unsigned long long value = 0;
    switch (size) {
        case 1: value = *static_cast<const volatile uint8_t*>(address); break;
        case 2: value = *static_cast<const volatile uint16_t*>(address); break;
        case 4: value = *static_cast<const volatile uint32_t*>(address); break;
        case 8: value = *static_cast<const volatile uint64_t*>(address); break;
        default: return;
    }
    if (address != poll.watch_address || value != poll.watch_value) {
        poll.watch_address = address;
        poll.watch_value = value;
        poll.watch_repeats = 0;
        return;
    }
    if (++poll.watch_repeats < 2) return;
    poll.watch_repeats = 0;
    poll_yield(s, slot, address, value, pc - 1);
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
    if (!s || !s->tracker || !tls_thread) return;
    // pc is the call's return address; one byte back is inside the call, on the access's own line.
    s->tracker->access(tls_thread->thread_idx, reinterpret_cast<uintptr_t>(address), size, flags, pc ? reinterpret_cast<uintptr_t>(pc) - 1 : 0);
    watch_load(s, running_slot(s), address, size, flags, reinterpret_cast<uintptr_t>(pc));
}

const kplay_emu_host kHostTable = {KPLAY_EMU_ABI_VERSION, host_sync_threads,     host_warp_op,          host_grid_sync, host_yield,
                                   host_vprintf,          host_fail,             emulated_round_arith, emulated_round_integer,
                                   host_access};

}  // namespace

BlockScheduler::BlockScheduler(EmulatedKernel kernel, void** args, LaunchGeometry geometry, ThreadOrder order, uint64_t seed,
                               unsigned char* dynamic_smem, size_t dynamic_smem_bytes, BlockEvents events, Residency& residency,
                               GridBarrier* grid)
    : impl_(std::make_unique<Impl>()) {
    impl_->kernel = kernel;
    impl_->args = args;
    impl_->geometry = geometry;
    impl_->order = order;
    impl_->seed = seed;
    impl_->events = std::move(events);
    impl_->grid = grid;
    impl_->residency = &residency;
    impl_->shape.block_dim = geometry.block;
    impl_->shape.grid_dim = geometry.grid;
    impl_->shape.dynamic_smem = dynamic_smem;
    impl_->shape.dynamic_smem_bytes = dynamic_smem_bytes;
    impl_->shape.cooperative = grid != nullptr;
}

BlockScheduler::~BlockScheduler() = default;

void BlockScheduler::track(AccessTracker* tracker) { impl_->tracker = tracker; }

void BlockScheduler::run_block(kplay_emu_dim block_idx) { impl_->run(block_idx); }

void BlockScheduler::run_blocks(int worker) {
    tls_scheduler = impl_.get();
    rotate_blocks(*impl_, *impl_->residency, worker);
    tls_scheduler = nullptr;
}

void BlockScheduler::set_static_shared(unsigned char* begin, size_t bytes) {
    impl_->static_shared = begin;
    impl_->static_shared_bytes = begin ? bytes : 0;
}

const kplay_emu_host* BlockScheduler::host_table() { return &kHostTable; }

const kplay_emu_thread* BlockScheduler::current_thread() { return tls_thread; }

void BlockScheduler::enable_preemption(CodeRange kernel_code) {
    g_kernel_code = kernel_code;
    install_preemption_handler(preempt);
}

}  // namespace kplay
