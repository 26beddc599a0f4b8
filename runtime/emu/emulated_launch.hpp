// One launch of an emulated kernel, in a forked process of its own.
//
// The launch process loads the checked shared object, starts one worker per core, installs the
// sandbox and runs the grid: workers take blocks in order, and a block runs on one worker
// (block_scheduler), which parks it for another while it waits for another block (block_residency).
// A cooperative launch has a worker per block instead, all resident together, so that every block can
// wait at the grid barrier. Buffers live in shared guarded mappings made before the fork, so
// results need no copying back, and a fault, a deadlock, a trap or an endless loop ends only that
// process. The caller gets a message in CUDA's terms: which thread of which block touched which
// buffer, and at which line. A call runs one host function the same way (run_emulated_call).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "values/error_code.hpp"
#include "emu/block_scheduler.hpp"
#include "emu/guarded_memory.hpp"
#include "emu/shared_object_check.hpp"
#include "values/race_report.hpp"
#include "values/who_wrote.hpp"
#include "values/writer_map.hpp"
#include "values/line_access.hpp"

namespace kplay {

// A `__constant__` array's content, copied in by the launch process before the kernel (or the
// reference) runs, through the object's accessor (emu_source.hpp's constant_accessors).
struct ConstantFill {
    std::string accessor;  // its symbol
    std::string name;      // the array's, for a message
    std::vector<unsigned char> bytes;
};

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
    bool cooperative = false; // every block resident at once (a worker each), so this_grid().sync() works
    bool debug = false;       // kplay_emu_debug_launch_begins() is called before the fork (a debugger follows it)
    std::vector<ConstantFill> constants;
    // A tracked build (kplay_emu_track.h): its accesses are checked for races on one worker.
    bool track = false;
    std::vector<SharedArraySymbol> shared_arrays;  // the object's __shared__ arrays, to name them
    std::string runtime_headers;                   // the prelude's folder: a race's line is the user's
    std::vector<ElementRef> who_wrote;             // elements whose last writer the result names
    // Blocks tracked (the first ones and the last); the rest run untracked, at nearly full speed. Who wrote
    // an element asked for needs them all.
    uint32_t tracked_blocks = kTrackedBlocks;
    std::string writer_map;  // a buffer whose every element's last writer the result maps (every block tracked)
};

struct EmulatedLaunchResult {
    bool ok = false;
    std::string error;       // for the user
    ErrorCode error_code = ErrorCode::none;  // CUDA's code where one fits (cuda_illegal_address, ...), else kplay's
    std::string file;        // where it happened, when known
    int line = 0;
    double kernel_ms = 0;    // wall time of the grid (or the call) in the launch process
    int workers = 0;
    std::vector<std::string> printf_lines;
    size_t printf_dropped = 0;
    std::vector<std::string> warnings;
    std::vector<Race> races;  // a tracked launch's (the kernel field left empty)
    bool races_dropped = false;  // more pairs of lines raced than a launch reports
    std::vector<ElementWriter> writers;  // for request.who_wrote, in order (index_story left empty)
    std::vector<BufferWrites> writes;    // each buffer's, in request.buffers' order
    LineAccessProfile line_access;        // a tracked launch's memory requests per source line (its first blocks)
    WriterMap writer_map;  // request.writer_map's cells and lines (the caller adds its name, launch and recipes)
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
    std::vector<ConstantFill> constants;            // the reference's arrays of the kernel's __constant__ names
};

EmulatedLaunchResult run_emulated_call(const EmulatedCallRequest& request);

// A debug launch (EmulatedLaunchRequest::debug) meets a debugger at two functions that do nothing,
// called then and otherwise never. kplay_emu_debug_launch_begins: just before the fork of its launch
// process; a debugger that breaks there and then follows the fork debugs that launch, and none of the
// run's other processes (the host compiler, a reference's call). kplay_emu_debug_kernel_loaded: in the
// launch process, once the kernel's object is loaded and kplay_emu_debug_launch holds the launch's
// grid and block, before any CUDA thread runs: the moment to set breakpoints in the kernel's lines.
extern "C" {
struct kplay_emu_debug_geometry {
    kplay_emu_dim grid, block;
};
extern kplay_emu_debug_geometry kplay_emu_debug_launch;
void kplay_emu_debug_launch_begins();
void kplay_emu_debug_kernel_loaded();
}

// Worker threads used when the request says 0.
int default_emulation_workers();

}  // namespace kplay
