// The engine: request/response values in, so callers (CLI, tests, later the worker process) can host it
// in-process or across a process boundary without changing.
//
//   RunRequest -> spec -> compile (cache) -> module -> inputs -> bind + validate -> launch, time -> check
//              -> RunReport
//
// No request throws: every failure becomes RunReport::error with the stage it happened in.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "run/argument_binding.hpp"
#include "compile/compile_cache.hpp"
#include "cuda/copy_ceiling.hpp"
#include "cuda/device_info.hpp"
#include "cuda/fault_explanation.hpp"
#include "spec/kernel_spec.hpp"
#include "client/launch_config.hpp"
#include "cuda/module.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "tasks/task.hpp"
#include "base/timing_stats.hpp"

namespace kplay {

struct EngineConfig {
    std::filesystem::path cache_dir;            // empty: memory-only compile cache
    std::filesystem::path kernels_include_dir;  // holds kplay.cuh
    std::filesystem::path cuda_include_dir;     // holds cuda_fp16.h
    std::filesystem::path emu_include_dir;      // holds kplay_emu_prelude.h (the emulated CPU device)
};

// The configuration a program gets by default: the XDG cache, the located kernels_src and toolkit.
EngineConfig default_engine_config();

// The default architecture when no device says otherwise (PTX for it).
constexpr const char* kDefaultArch = "compute_90";

struct CompileFileRequest {
    std::filesystem::path path;
    std::optional<std::string> source;  // use this text instead of reading the file
    std::string arch;                   // empty: the device's sm_XX, or kDefaultArch without a device
    bool want_ptx = false;              // PTX even when a device is present
    std::vector<std::pair<std::string, std::string>> defines;
};

struct CompileFileResult {
    CompileResult compile;
    std::optional<KernelSpec> spec;  // when the file's spec could be resolved
    std::string spec_problem;        // why not, otherwise (compiling goes on without name expressions)
    std::string input_error;         // the file could not be read or the arch is unknown: nothing compiled
};

struct RunRequest {
    std::filesystem::path kernel_path;
    std::optional<std::string> source;  // use this text instead of reading the file
    InputRequest inputs;
    std::optional<std::vector<int64_t>> block;  // overrides the spec
    std::optional<std::vector<int64_t>> grid;   // overrides the spec; empty vector = auto
    std::optional<int64_t> smem;
    std::map<std::string, std::string> arg_overrides;                 // literal arguments, e.g. tw=32
    std::vector<std::pair<std::string, std::string>> defines;         // added to / override the spec's
    std::optional<double> tolerance;
    std::string arch;  // empty: the device's
    int device = 0;
    int warmup = 3;
    int repeat = 20;
    bool flush_l2 = true;
    bool measure_ceiling = true;
    bool keep_outputs = false;  // keep output bytes and the diff/error map (the window wants them)
    std::string known_input;    // the caller already has the input with this identity: do not send it again
    // Benchmarks: keep several copies of inputs that fit in L2 and rotate through them, measure the
    // copy ceiling afresh (not from the cache file), or time a library instead of a kernel file
    // ("cublas-fp32", "cublas-tf32"; matmul inputs).
    bool rotate_inputs = false;
    bool remeasure_ceiling = false;
    std::string baseline;

    // The emulated CPU device: asked for (`--device cpu`), or used because no CUDA device is there.
    bool emulate = false;
    bool emulate_without_gpu = true;
    std::string thread_order = "forward";  // forward, reverse, random (with order_seed)
    uint64_t order_seed = 1;
    int emulation_workers = 0;          // 0: one per core
    double emulation_timeout_s = 10;    // an emulated launch running longer is stopped
    // Thorough mode: the kernel built with AddressSanitizer and UBSan, one worker thread. Needs a worker
    // started with the sanitizer runtimes preloaded (sanitizer_worker_environment()).
    bool emulation_thorough = false;
    // Tests only: switch one defence off to prove the other stops a hostile kernel on its own.
    bool emulation_symbol_check = true;
    bool emulation_sandbox = true;
};

struct RunReport {
    // Stages, in order; `stage` names where the run stopped ("done" when it went through).
    std::string stage = "input";
    std::string error;       // empty on success; a message for the user otherwise
    std::string error_code;  // CUDA_ERROR_... / NVRTC_ERROR_... when an API call failed
    FaultInfo fault;         // for CUDA errors: what it means and what to try

    std::string file, task, kernel, lowered_name;
    std::optional<KernelSpec> spec;
    CompileResult compile;  // binary dropped
    std::optional<DeviceInfo> device;
    FunctionAttributes function;
    Occupancy occupancy;
    double module_load_ms = 0;
    LaunchConfig launch;
    Coverage coverage;
    std::vector<BoundArgument> arguments;
    std::string input_description;

    TimingStats kernel_ms;
    int warmup = 0;
    bool l2_flushed = false;
    int input_copies = 1;  // >1: inputs rotated between timed launches
    double h2d_ms = 0, d2h_ms = 0, inputs_ms = 0;
    double bytes = 0, flops = 0;
    double gbps = 0, gflops = 0;
    CopyCeiling ceiling;
    double percent_of_ceiling = 0;
    CheckReport check;

    // keep_outputs: the gray output image and its shape (a matmul's C is not kept: its error map is),
    // and the input (planar RGB) so a window can show what the worker decoded.
    std::vector<unsigned char> output;
    int output_w = 0, output_h = 0;
    std::vector<unsigned char> input;  // empty when the request said it already has this input
    int input_w = 0, input_h = 0;
    std::string input_identity;

    // The emulated device: its timings are CPU wall time and say nothing about GPU speed.
    bool emulated = false;
    std::string thread_order;
    bool thorough = false;  // built with AddressSanitizer and UBSan
    double host_compile_ms = 0;
    bool host_compile_cached = false;
    std::vector<std::string> printf_lines;  // tagged "[block (x,y,z) thread (x,y,z)] text"
    size_t printf_dropped = 0;
    std::vector<std::string> warnings;      // e.g. threads meeting at different barriers
    int error_line = 0;                     // the kernel line an emulated fault, trap or deadlock happened at

    bool ok() const { return error.empty() && stage == "done"; }
    bool sticky_fault() const { return fault.sticky; }
    bool passed() const { return ok() && check.passed; }
};

// The kplay-cli command line that reproduces a request (for compute-sanitizer hints).
std::string rerun_command(const RunRequest& request);

class Engine {
public:
    explicit Engine(EngineConfig config);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    DeviceQuery devices() const;
    // Called as a run moves between phases: "compile" (NVRTC), "cpu" (making inputs, the CPU reference
    // and the check) and "gpu" (launches). The worker forwards it so the watchdog times each phase by
    // its own limit: a slow reference is not mistaken for a hung kernel.
    void set_progress_callback(std::function<void(const char* phase)> callback) { progress_ = std::move(callback); }
    // Bytes in use on the device of the last run (-1 when no context exists yet): for leak checks.
    int64_t device_memory_in_use();
    CompileFileResult compile_file(const CompileFileRequest& request);
    RunReport run(const RunRequest& request);
    const EngineConfig& config() const { return config_; }

private:
    struct DeviceState;
    DeviceState& device_state(int ordinal);
    CompileRequest make_compile_request(const std::string& source, const std::filesystem::path& path,
                                        const std::vector<std::string>& names, const std::string& arch,
                                        const std::vector<std::pair<std::string, std::string>>& defines) const;
    void run_stages(const RunRequest& request, RunReport& report);
    // The emulated device's half of a run, after NVRTC accepted the source (engine_emulated.cpp).
    void run_emulated_stages(const RunRequest& request, RunReport& report, const KernelSpec& spec, const std::string& source,
                             const Task& task);

    // Inputs of the last few input requests: the window re-runs on every save, and making the built-in
    // image or random matrices again would dominate the edit->result time.
    TaskData make_inputs_cached(const Task& task, const InputRequest& request);
    std::vector<std::pair<std::string, std::shared_ptr<const TaskData>>> input_cache_;

    void progress(const char* phase) const {
        if (progress_) progress_(phase);
    }
    std::function<void(const char* phase)> progress_;
    EngineConfig config_;
    CompileCache cache_;
    std::map<int, std::unique_ptr<DeviceState>> devices_;
};

}  // namespace kplay
