// What a run produced, as one value: where it got to, the compile, the device and the launch, the
// timings and rates against the ceiling, the check, and what the window draws. The engine fills it in
// the worker; the codec carries it to the window or the CLI unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expression.hpp"
#include "base/timing_stats.hpp"
#include "client/check_report.hpp"
#include "client/compile_result.hpp"
#include "client/device_values.hpp"
#include "client/fault_info.hpp"
#include "client/kernel_resources.hpp"
#include "client/launch_config.hpp"
#include "client/output_view.hpp"
#include "client/run_request.hpp"
#include "client/stage.hpp"
#include "spec/kernel_spec.hpp"

namespace kplay {

// One kernel argument as bound: what the spec said, what the kernel's parameter is, what it got.
struct BoundArgument {
    std::string param;    // the kernel's parameter name, when known
    std::string binding;  // the spec text: "in", "n", "tw=16"
    std::string kind;     // "pointer", "int32", "int64", "float32", ...
    std::string value;    // for the user: the buffer name or the number
    int buffer = -1;      // the task buffer it points at; -1 for a value
    alignas(8) unsigned char storage[8] = {};
    size_t size = 0;
    int tensor_map = -1;  // the spec's TMA descriptor it passes (128 bytes the device builds); -1 for none
};

// What the run's rate is measured against, measured on the same device.
struct Ceiling {
    CeilingKind kind = CeilingKind::none;
    std::string name;  // "copy bandwidth", "read-only bandwidth", "cuBLAS fp32"
    double gbps = 0;   // bandwidth ceilings
    double gflops = 0; // cuBLAS
    double ms = 0;     // one measured operation's median
    double bytes = 0;  // bytes per measured operation (bandwidth ceilings)
    bool cached = false;    // read from the cache file instead of measured now
    bool deferred = false;  // not measured in this run (the window asks for it separately)
};

// A launch after the first (a kplay-launch line), as it ran: the run times all launches as one.
struct FollowingLaunchReport {
    std::string kernel;
    LaunchConfig launch;
};

// Where a run's wall time went in the worker, for the edit->result breakdown (docs/BENCHMARKS.md).
struct RunTimes {
    // From the run's start: compiled, kernels loaded, the checked launches read back, their check done,
    // and the checked result sent (progressive runs).
    double compiled_at_ms = 0, loaded_at_ms = 0, launched_at_ms = 0, checked_at_ms = 0;
    double partial_at_ms = 0;
    double timed_ms = 0;          // the warm-ups and timed repeats
    double further_sizes_ms = 0;  // the test sizes and the second seed
    double run_ms = 0;            // the whole run, the ceiling included
};

struct RunReport {
    Stage stage = Stage::source;  // where the run stopped; done when it went through
    std::string error;            // empty on success; a message for the user otherwise
    std::string error_code;       // CUDA_ERROR_... / KPLAY_... when something failed at run time
    FaultInfo fault;              // for CUDA errors: what it means and what to try
    int error_line = 0;           // the kernel line a fault, trap or deadlock happened at (emulated device)

    std::string file, task, kernel, lowered_name;
    std::optional<KernelSpec> spec;  // with its task
    std::string sizes;               // the main run's sizes, "1024x1024x1024"
    NamedValues values;              // the sizes, derived values and literal arguments of the main run
    CompileResult compile;           // binary dropped
    std::optional<DeviceInfo> device;
    FunctionAttributes function;
    Occupancy occupancy;
    double module_load_ms = 0;
    LaunchConfig launch;
    std::vector<FollowingLaunchReport> following;  // the launches after `launch`, in order
    Coverage coverage;
    std::vector<BoundArgument> arguments;
    std::string input_description;
    std::string input_identity;

    TimingStats kernel_ms;
    int warmup = 0;
    bool l2_flushed = false;
    int input_copies = 1;  // >1: inputs rotated between timed launches
    double h2d_ms = 0, d2h_ms = 0, inputs_ms = 0;
    double bytes = 0, flops = 0;
    double gbps = 0, gflops = 0;
    Ceiling ceiling;
    double percent_of_ceiling = 0;
    std::string verdict;  // "memory-bound: 71% of copy bandwidth"
    CheckReport check;
    OutputView view;  // keep_outputs

    // The emulated device: its timings are CPU wall time and say nothing about GPU speed.
    bool emulated = false;
    ThreadOrder thread_order = ThreadOrder::forward;
    bool thorough = false;  // built with AddressSanitizer and UBSan
    double host_compile_ms = 0;
    bool host_compile_cached = false;
    std::vector<std::string> printf_lines;  // tagged "[block (x,y,z) thread (x,y,z)] text"
    size_t printf_dropped = 0;
    std::vector<std::string> warnings;  // e.g. threads meeting at different barriers
    // A progressive run (RunRequest::progressive) answers twice. First the main size's checked result,
    // `partial`, with kernel_ms from the checked launches only: the picture and the verdict of its check
    // before any timed repeat, test size or second seed. Then the whole report, whose view leaves out the
    // arrays the first answer carried (`view_sent_before`): the client keeps those.
    bool partial = false;
    bool view_sent_before = false;
    RunTimes times;

    bool ok() const { return error.empty() && stage == Stage::done; }
    bool sticky_fault() const { return fault.sticky; }
    bool passed() const { return ok() && check.passed; }
    // The measured rate in the task's unit (GB/s or GFLOP/s).
    double rate() const;
};

struct CompileFileResult {
    CompileResult compile;
    std::optional<KernelSpec> spec;  // when the file's spec could be resolved
    std::string spec_problem;        // why not, otherwise (compiling goes on without name expressions)
    std::string input_error;         // the file could not be read or the arch is unknown: nothing compiled
};

}  // namespace kplay
