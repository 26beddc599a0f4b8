// What a program asks the engine for: run a kernel file (RunRequest) or only compile it
// (CompileFileRequest). Values handed to the worker as they are; the engine fills in what is left out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "values/who_wrote.hpp"

namespace kplay {

// The order in which the emulated device resumes the threads of a block: a missing __syncthreads()
// shows up as a different result under another order.
enum class ThreadOrder { forward, reverse, random };
const char* thread_order_name(ThreadOrder order);
std::optional<ThreadOrder> parse_thread_order(std::string_view text);

// A library call timed in place of the kernel, at the same sizes: the ceiling of GEMM-like tasks.
enum class Baseline { none, cublas_fp32, cublas_tf32 };
const char* baseline_name(Baseline baseline);  // "cublas-fp32"
std::optional<Baseline> parse_baseline(std::string_view text);

// How the user asked for inputs.
struct InputRequest {
    std::string image_path;  // tasks with an image input: PNG/JPEG; empty = the built-in image
    // The sizes: "1000x999x1001" (one value per size name, in the declared order), "R=3,C=1000", or for
    // a single size "4096". Empty: the task's default for the device (GPU or CPU).
    std::string size;
    uint64_t seed = 1;
};

struct RunRequest {
    std::filesystem::path kernel_path;
    std::optional<std::string> source;  // use this text instead of reading the file
    InputRequest inputs;
    std::optional<std::vector<int64_t>> block;  // overrides the spec
    std::optional<std::vector<int64_t>> grid;   // overrides the spec; empty vector = auto
    std::optional<int64_t> smem;
    std::map<std::string, std::string> arg_overrides;          // literal arguments, e.g. tw=32
    std::map<std::string, std::string> init_overrides;         // an input's init for this run, e.g. pixels=randint(0,255)
    std::vector<std::pair<std::string, std::string>> defines;  // added to / override the spec's
    // The user's header folders (kplay-cli -I, KPLAY_INCLUDE_PATH), absolute; searched after the file's include=.
    std::vector<std::string> include_dirs;
    std::optional<double> tolerance;  // replaces the leading tolerance of every output's check
    std::string arch;                 // empty: the device's
    int device = 0;
    int warmup = 3;
    int repeat = 20;
    bool flush_l2 = true;
    bool measure_ceiling = true;
    // The window measures a library ceiling (cuBLAS) in a request of its own, so a run is never
    // delayed by it; the report then says the ceiling is deferred.
    bool defer_library_ceiling = false;
    // Also check the task's test sizes (edge cases) and a second seed of inputs. When inputs.size is
    // given, only that size is run, and the second seed runs at it.
    bool check_test_sizes = true;
    // The test sizes even when inputs.size is given: a sweep times each point at its own size and still
    // checks every point at the edge cases.
    bool test_sizes_at_any_size = false;
    // Without inputs.size: the task's bench size (kplay-cli bench) instead of its default size.
    bool bench_sizes = false;
    bool keep_outputs = false;  // fill the report's OutputView (the window wants it)
    // The longest side of an image view in its pixels (0: the image's own size). A larger image comes
    // downsampled (OutputView::step) and the worker keeps what its full resolution is made from, for a
    // "view" request (the window asks when the user zooms in past the view's pixels or saves).
    int view_side = 0;
    bool progressive = false;   // answer the main size's checked result first (RunReport::partial)
    std::string known_input;    // the caller already has the input with this identity: do not send it again
    // Benchmarks: keep several copies of inputs that fit in L2 and rotate through them, measure the
    // ceilings afresh (not from the cache file), or time a library instead of the kernel.
    bool rotate_inputs = false;
    bool remeasure_ceiling = false;
    Baseline baseline = Baseline::none;

    // The emulated CPU device: asked for (`--device cpu`), or used because no CUDA device is there.
    bool emulate = false;
    bool emulate_without_gpu = true;
    ThreadOrder thread_order = ThreadOrder::forward;
    uint64_t order_seed = 1;
    int emulation_workers = 0;        // 0: one per core
    double emulation_timeout_s = 10;  // an emulated launch running longer is stopped
    double reference_timeout_s = 300;  // a host reference (or a reference kernel) running longer is stopped
    // Thorough mode: the kernel built with AddressSanitizer and UBSan, one worker thread. Needs a worker
    // started with `kplay-worker --thorough` (it preloads the sanitizer runtimes).
    bool emulation_thorough = false;
    // The emulated device's kernel built with its loads and stores tracked (one worker thread): races
    // between threads are reported at any thread order (emu/access_tracker.hpp). Not with thorough mode.
    bool emulation_track = true;
    // Elements whose last writer a tracked run names (`--who-wrote out[13]`).
    std::vector<ElementRef> who_wrote;
    // A buffer whose every element's last writer a tracked run records (RunReport::writer_map): the
    // window's "Who wrote each element". Empty: none.
    std::string writer_map;
    // Tests only: switch one defence off to prove the other stops a hostile kernel on its own.
    bool emulation_symbol_check = true;
    bool emulation_sandbox = true;
    // A run for a debugger (kplay-cli run --debug-build, what `kplay-cli debug` starts under gdb): the
    // kernel built with -O0 -g, one worker thread, no seccomp filter (gdb's breakpoints and reads go
    // through ptrace, and a filtered process is not one to be debugged) and no time limit while stopped.
    bool emulation_debug = false;
};

// The kplay-cli arguments that reproduce a request once ("run FILE --size ... --warmup 0 --repeat 1"),
// and them as one command line (for compute-sanitizer hints).
std::vector<std::string> rerun_arguments(const RunRequest& request);
std::string rerun_command(const RunRequest& request);

struct CompileFileRequest {
    std::filesystem::path path;
    std::optional<std::string> source;  // use this text instead of reading the file
    std::string arch;                   // empty: the device's sm_XX, or the default PTX without a device
    bool want_ptx = false;              // PTX even when a device is present
    // For inspection: a CUBIN for the device's sm_XX (sm_90 without a device, or `arch` made sm_), with
    // its PTX, line info and ptxas's resource report; the CUBIN travels as a shared-memory blob.
    bool inspect = false;
    std::vector<std::pair<std::string, std::string>> defines;
    std::vector<std::string> include_dirs;  // as RunRequest's
};

}  // namespace kplay
