// One CUDA thread of an emulated launch under gdb: run to a line, step, continue, read its locals and
// its block's shared arrays.
//
// gdb starts `kplay-cli run FILE --in-process --debug-build ...` (the kernel built with -O0 -g, one
// worker thread, no seccomp filter) and follows only the launch's own process (emulated_launch.hpp's
// kplay_emu_debug_* meeting points). Each CUDA thread is a fiber on that one worker, so the breakpoint
// at FILE:LINE carries a condition on the running thread's identity (the prelude's current_thread):
// gdb stops only in the chosen thread. A step is gdb's `next` in the thread's own frame, which holds
// across a __syncthreads that switches to the block's other fibers (their frames are not the one being
// stepped, and the breakpoint's condition is false in them).
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kplay {

using DebugIndex = std::array<unsigned, 3>;

struct DebugRequest {
    std::filesystem::path kplay_cli;         // the program gdb starts
    std::filesystem::path file;              // the kernel file
    std::vector<std::string> run_arguments;  // more of `kplay-cli run` (--size 1000, -D N=4); gdb starts it without a shell
    DebugIndex block{0, 0, 0}, thread{0, 0, 0};
    int line = 0;
    std::string gdb = "gdb";
    double timeout_s = 120;  // for the launch to reach the line, and for each step
};

struct DebugVariable {
    std::string name, type, value;  // the value as gdb prints it
};

enum class DebugState {
    stopped,          // in the chosen thread, at `line`
    thread_returned,  // a step left the kernel: the chosen thread has finished
    launch_ended,     // the launch ended without (another) stop in the chosen thread
    failed,           // `message` says why; the session is over
};

struct DebugStop {
    DebugState state = DebugState::failed;
    std::string file;  // as the kernel's debug info names it
    int line = 0;
    std::string function;
    DebugIndex block{0, 0, 0}, thread{0, 0, 0};  // read from the stopped process (not the request's)
    std::vector<DebugVariable> locals;           // the frame's own, shared arrays apart
    std::vector<DebugVariable> shared;           // the block's __shared__ arrays and variables in scope
    std::string message;                         // failed: why; else a note ("line 5 has no code: ...")
};

const char* debug_state_name(DebugState state);

// The `__shared__` names a kernel file declares, in order (what a stop lists as the block's shared memory).
std::vector<std::string> shared_names(const std::string& source);

// Why a GPU run cannot be debugged here, in one sentence for the panel and the CLI.
std::string gpu_debugging_note();

class DebugSession {
public:
    DebugSession();
    DebugSession(DebugSession&&) noexcept;
    DebugSession& operator=(DebugSession&&) noexcept;
    ~DebugSession() noexcept;

    // Starts gdb and the run, and runs to the first time the chosen thread reaches the line.
    DebugStop start(const DebugRequest& request);
    // The chosen thread's next line (gdb's `next`), or where it returned from the kernel.
    DebugStop step();
    // On to the line's next hit in the chosen thread, or the end of the launch.
    DebugStop continue_();
    // An expression in the stopped thread's frame (`partial[5]`, `i * 2`): its type and value, or
    // the value "<gdb's message>" when it cannot be evaluated.
    DebugVariable evaluate(const std::string& expression);
    // gdb and the run, ended.
    void finish() noexcept;
    bool active() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace kplay
