// The engine: request/response values in, so callers (the worker process, tests, kplay-cli
// --in-process) host it without changing.
//
//   RunRequest -> source, spec (task) -> compile (cache) -> device -> load -> for the main size, then
//   the test sizes and a second seed: inputs -> plan -> reference -> launches (runner) -> check
//   -> ceiling, verdict -> RunReport
//
// No request throws: every failure becomes RunReport::error with the stage it happened in.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>

#include "values/device_values.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "values/stage.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compiler_process.hpp"
#include "tasks/kept_view.hpp"
#include "reference/references.hpp"
#include "tasks/input_cache.hpp"

namespace kplay {

class CudaDevice;

struct EngineConfig {
    std::filesystem::path cache_dir;            // empty: memory-only compile cache
    std::filesystem::path kernels_include_dir;  // holds kplay.cuh
    std::filesystem::path cuda_include_dir;     // holds cuda_fp16.h
    std::filesystem::path emu_include_dir;      // holds kplay_emu_prelude.h (the emulated CPU device)
    // kplay-worker: compiles go to the compile server this program serves (`--compile-server`), which
    // outlives the worker with NVRTC's precompiled headers. Empty: NVRTC in this process.
    std::filesystem::path compiler_program;
    bool compiler_pch = true;  // the compile server's compiles use NVRTC's precompiled headers (-pch)
};

// The configuration a program gets by default: the XDG cache, the located kernels_src and toolkit.
EngineConfig default_engine_config();

// The default architecture when no device says otherwise (PTX for it).
constexpr const char* kDefaultArch = "compute_90";

// Called as a run moves between phases, and as a long CPU reference gets further (fraction 0..1, or
// -1 when unknown). The worker forwards it so the watchdog times each phase by its own limit.
using ProgressCallback = std::function<void(Phase phase, double fraction)>;
// Called once in a progressive run (RunRequest::progressive) with the main size's checked result,
// before its timed repeats and further sizes (RunReport::partial).
using PartialCallback = std::function<void(const RunReport& partial)>;
// Asked between the phases that follow a progressive run's checked result (each timed repeat, each
// further size, the memory ceiling): true when the caller no longer wants them (a newer run overtook
// this one), and true from then on for that run. The run then ends at once, saying what it left out.
// Engine::run asks it only once the checked result has gone.
using CutCheck = std::function<bool()>;

class Engine {
public:
    explicit Engine(EngineConfig config);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // The GPUs, the emulated CPU device and the NVRTC version.
    DeviceQuery devices() const;
    void set_progress_callback(ProgressCallback callback) { progress_ = std::move(callback); }
    void set_partial_callback(PartialCallback callback) { partial_ = std::move(callback); }
    void set_cut_check(CutCheck check) { cut_ = std::move(check); }
    // Bytes in use on the device of the last run (-1 when no context exists yet): for leak checks.
    int64_t device_memory_in_use();
    CompileFileResult compile_file(const CompileFileRequest& request);
    RunReport run(const RunRequest& request);
    // A shown run's primary output at full resolution, when its view came downsampled
    // (RunRequest::view_side) with this key. Throws InputError when it is no longer kept.
    OutputView full_view(const std::string& key) const { return kept_view_.full_view(key); }
    // Makes GPU 0's context now, if there is a GPU and no context yet (the first run then finds it
    // made); a failure is left for that run to report.
    void open_first_gpu();
    const EngineConfig& config() const { return config_; }

private:
    CudaDevice& gpu(int ordinal);

    EngineConfig config_;
    std::unique_ptr<CompilerProcess> compiler_;  // null: NVRTC in this process
    CompileCache cache_;
    std::map<int, std::unique_ptr<CudaDevice>> gpus_;
    InputCache inputs_;
    References references_;
    ProgressCallback progress_;
    PartialCallback partial_;
    CutCheck cut_;
    KeptView kept_view_;
};

}  // namespace kplay
