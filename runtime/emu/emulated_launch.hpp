// One launch of an emulated kernel, in a forked process of its own.
//
// The launch process loads the checked shared object, starts one worker per core, installs the
// sandbox and runs the grid: workers take blocks from a shared counter, and a block runs to completion
// on one worker (block_scheduler). Buffers live in shared guarded mappings made before the fork, so
// results need no copying back, and a fault, a deadlock, a trap or an endless loop ends only that
// process. The caller gets a message in CUDA's terms: which thread of which block touched which
// buffer, and at which line. A call runs one host function the same way (run_emulated_call).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "emu/block_scheduler.hpp"
#include "emu/guarded_memory.hpp"

namespace kplay {

struct EmulatedLaunchRequest {
    std::filesystem::path shared_object;
    std::string entry_symbol;
    LaunchGeometry geometry;
    size_t dynamic_smem = 0;
    std::vector<void*> args;           // cuLaunchKernel-style: each points at one argument's bytes
    std::vector<BufferLabel> buffers;  // for fault messages
    ThreadOrder order = ThreadOrder::forward;
    uint64_t seed = 1;
    int workers = 0;          // 0: one per core
    double timeout_s = 10;    // then the launch is stopped and reported as a probable endless loop
    bool sandbox = true;      // tests turn this off to prove the symbol check on its own
    bool thorough = false;    // an ASan/UBSan build: their reports are captured and tagged with the thread
};

struct EmulatedLaunchResult {
    bool ok = false;
    std::string error;       // for the user
    std::string error_code;  // CUDA's name where one fits (CUDA_ERROR_ILLEGAL_ADDRESS, ...), else KPLAY_...
    std::string file;        // where it happened, when known
    int line = 0;
    double kernel_ms = 0;    // wall time of the grid (or the call) in the launch process
    int workers = 0;
    std::vector<std::string> printf_lines;
    size_t printf_dropped = 0;
    std::vector<std::string> warnings;
};

EmulatedLaunchResult run_emulated_launch(const EmulatedLaunchRequest& request);

// Before the entry, the launch process hands the called code where to report: a progress fraction
// (0..1) the caller polls, and a text for an abort it asks for (an assert, an exception).
using EmulatedCallBind = int (*)(double* progress, char* failure, unsigned long capacity);

// One call of an untrusted host function (a host reference): the same process, handlers, sandbox and
// timeout as a launch, the entry called once on the launch process's main thread. Its messages speak
// of a reference: "the reference wrote 1 element past the end of 'y' (1000 floats) at emu/ref.cu:12";
// its failures are KPLAY_REFERENCE_FAILED, KPLAY_SANDBOX or KPLAY_TIMEOUT.
struct EmulatedCallRequest {
    std::filesystem::path shared_object;
    std::string entry_symbol;          // void entry(void** args)
    std::string bind_symbol;           // an EmulatedCallBind; empty: none
    std::vector<void*> args;           // each points at one argument's bytes (a buffer's address, a value)
    std::vector<BufferLabel> buffers;  // for fault messages
    double timeout_s = 10;
    bool sandbox = true;                            // tests turn this off to prove the symbol check on its own
    std::function<void(double fraction)> progress;  // called from the waiting loop when the fraction moved
    std::string who = "the reference";              // how messages name the code that ran
};

EmulatedLaunchResult run_emulated_call(const EmulatedCallRequest& request);

// Worker threads used when the request says 0.
int default_emulation_workers();

}  // namespace kplay
