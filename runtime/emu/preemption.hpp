// Preemption of a CUDA thread that keeps a worker busy, so that the threads it waits for get to run.
//
// CUDA threads are fibers, and a fiber runs until it waits. On a GPU since Volta every thread makes
// progress on its own, so a thread may spin until another thread of its block sets a flag. Polling
// through atomics, fences and __nanosleep yields to the other fibers where it happens (the prelude
// notes a poll: the same atomic finding the same value again, a second fence); a spin on a volatile
// load has no such point. For that, each worker has a CPU-time timer that fires every millisecond; when
// it finds the same CUDA thread running in the kernel's own code at two ticks in a row, the handler
// suspends that thread as if it had yielded. Together they cover every spin that can end, whatever it
// polls with; a thread that computes for long is only switched out and resumed, which changes nothing it
// computes. The timer costs one signal per millisecond of CPU time and per worker.
#pragma once

#include <cstdint>
#include <string>

namespace kplay {

// The kernel's own code: preemption happens only there (never inside the runtime, libm or memcpy).
struct CodeRange {
    uintptr_t begin = 0, end = 0;
    bool contains(uintptr_t pc) const { return pc >= begin && pc < end; }
};

// The executable segments of the loaded shared object that holds `symbol_address`.
CodeRange code_range_of(const void* symbol_address);

// Installs `handler` (given the interrupted context) for the preemption signal, process-wide.
void install_preemption_handler(void (*handler)(void* ucontext));

// A timer on the calling thread's CPU time that raises the preemption signal every `period_us`. Made
// before the sandbox (which forbids making timers); empty on success, else why not.
std::string start_preemption_timer(long period_us);

// The interrupted instruction of a signal context.
uintptr_t interrupted_pc(const void* ucontext);

}  // namespace kplay
