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
#include "values/race_report.hpp"
#include "values/who_wrote.hpp"
#include "values/writer_map.hpp"
#include "values/line_access.hpp"
#include "values/timing_conditions.hpp"
#include "values/check_report.hpp"
#include "values/compile_result.hpp"
#include "values/device_values.hpp"
#include "values/error_code.hpp"
#include "values/fault_info.hpp"
#include "values/kernel_resources.hpp"
#include "values/launch_config.hpp"
#include "values/output_view.hpp"
#include "values/run_request.hpp"
#include "values/stage.hpp"
#include "kernel_file/kernel_spec.hpp"

namespace kplay {

// One kernel argument as bound: what the spec said, what the kernel's parameter is, what it got.
// A device address inside an argument's bytes: a task buffer's address plus a byte offset, written in
// per set of buffers (a pointer argument has one at 0; a struct argument one per pointer field).
struct PointerSlot {
    size_t at = 0;        // where in the argument's bytes
    int buffer = -1;      // the task buffer
    uint64_t offset = 0;  // bytes past the buffer's start (`data+256` of f32: 1024)
};

// The most bytes an argument bound by value may take (a struct of buffers and sizes).
inline constexpr size_t kMaxArgumentBytes = 256;

struct BoundArgument {
    std::string param;    // the kernel's parameter name, when known
    std::string binding;  // the spec text: "in", "n", "tw=16"
    std::string kind;     // "pointer", "int32", "int64", "float32", "null pointer", "struct", ...
    std::string value;    // for the user: the buffer name or the number
    int buffer = -1;      // the task buffer it points at; -1 for a value (or a struct, a null pointer)
    alignas(16) unsigned char storage[kMaxArgumentBytes] = {};
    size_t size = 0;
    int tensor_map = -1;  // the spec's TMA descriptor it passes (128 bytes the device builds); -1 for none
    int texture = -1;     // the spec's texture or surface object it passes (8 bytes the device builds); -1 for none
    // The addresses its bytes hold, filled in per set of buffers (with_addresses); like `storage`, only
    // the worker, which launches with them, needs them.
    std::vector<PointerSlot> pointers;
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
    ErrorCode error_code = ErrorCode::none;  // a CUDA, NVRTC or kplay code when something failed at run time
    FaultInfo fault;              // for CUDA errors: what it means and what to try
    int error_line = 0;           // the kernel line a fault, trap or deadlock happened at (emulated device)
    // A launch refused before it ran (ErrorCode::launch_rejected): each limit it breaks, one sentence each.
    std::vector<std::string> launch_problems;

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
    TimingConditions conditions;  // the GPU's clocks around the timed repeats (timed GPU runs)
    int input_copies = 1;  // >1: inputs rotated between timed launches
    double h2d_ms = 0, d2h_ms = 0, inputs_ms = 0;
    bool inputs_resident = false;  // the GPU still held this input set's buffers from an earlier run: nothing uploaded
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
    bool tracked = false;   // every load and store checked for races (the first checked launch's are below)
    std::vector<Race> races;
    std::vector<ElementWriter> writers;  // RunRequest::who_wrote's, on a tracked run
    WriterMap writer_map;                // RunRequest::writer_map's buffer, on a tracked run (its cells travel as a blob)
    std::vector<BufferWrites> writes;    // each buffer's elements written once, more than once, never (tracked runs)
    std::vector<LineAccessProfile> line_access;  // tracked runs: memory requests per line, per kernel launched
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

// Whether the run got as far as `stage`: it stopped there or went further. A worker that failed
// (Stage::worker) got nowhere a report says: it sent no report of its own.
inline bool reached(const RunReport& report, Stage stage) { return report.stage != Stage::worker && report.stage >= stage; }

struct CompileFileResult {
    CompileResult compile;
    std::optional<KernelSpec> spec;  // when the file's spec could be resolved
    std::string spec_problem;        // why not, otherwise (compiling goes on without name expressions)
    std::string input_error;         // the file could not be read or the arch is unknown: nothing compiled
};

}  // namespace kplay
