// The engine's requests: devices, compile, run. A run is the pipeline (run_pipeline.cpp); here its
// failures become the report's error.
#include "run/engine.hpp"

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "compile/compile_server.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "cuda/device_query.hpp"
#include "cuda/driver.hpp"
#include "cuda/fault_explanation.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/emulated_limits.hpp"
#include "emu/host_compiler.hpp"
#include "plan/plan.hpp"
#include "device/cuda_device.hpp"
#include "run/compile_kernels.hpp"
#include "run/engine_services.hpp"
#include "run/run_pipeline.hpp"
#include "kernel_file/host_code.hpp"
#include "kernel_file/include_dirs.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

EngineConfig default_engine_config() {
    EngineConfig config;
    config.cache_dir = default_cache_dir();
    const fs::path kernels = kernels_dir();
    if (!kernels.empty()) config.kernels_include_dir = kernels / "include";
    config.cuda_include_dir = cuda_include_dir();
    config.emu_include_dir = emulated_include_dir();
    return config;
}

namespace {

std::unique_ptr<CompilerProcess> compiler_for(const EngineConfig& config) {
    if (config.compiler_program.empty()) return nullptr;
    return std::make_unique<CompilerProcess>(config.compiler_program, compile_server_socket(config.compiler_program, config.cache_dir),
                                             config.compiler_pch);
}

CompileCache::Compiler compile_through(CompilerProcess* compiler) {
    if (!compiler) return compile_with_nvrtc;
    return [compiler](const CompileRequest& request) { return compiler->compile(request); };
}

}  // namespace

Engine::Engine(EngineConfig config)
    : config_(std::move(config)), compiler_(compiler_for(config_)), cache_(config_.cache_dir, compile_through(compiler_.get())) {}

Engine::~Engine() = default;

DeviceQuery Engine::devices() const {
    DeviceQuery query = query_devices();
    query.nvrtc_version = nvrtc_version_string();
    const HostCompiler& compiler = host_compiler();
    query.emulated.available = !compiler.path.empty();
    query.emulated.host_compiler = compiler.version;
    query.emulated.problem = compiler.problem;
    query.emulated.device = emulated_device_info(default_emulation_workers());
    return query;
}

int64_t Engine::device_memory_in_use() {
    if (gpus_.empty()) return -1;
    gpus_.begin()->second->make_current();
    size_t free = 0, total = 0;
    if (driver_api().cuMemGetInfo(&free, &total) != CUDA_SUCCESS) return -1;
    return static_cast<int64_t>(total - free);
}

void Engine::open_first_gpu() {
    if (!gpus_.empty() || !driver_status().ready()) return;
    try {
        if (query_devices().devices.empty()) return;
        gpu(0);
    } catch (const std::exception&) {
        gpus_.erase(0);  // the run that needs it says why
    }
}

CudaDevice& Engine::gpu(int ordinal) {
    auto& slot = gpus_[ordinal];
    if (!slot) slot = std::make_unique<CudaDevice>(ordinal);
    slot->make_current();
    return *slot;
}

CompileFileResult Engine::compile_file(const CompileFileRequest& request) {
    CompileFileResult result;
    std::string source;
    std::string arch;
    try {
        source = request.source ? *request.source : read_source_file(request.path);
    } catch (const InputError& error) {
        result.input_error = error.what();
        return result;
    }
    CompileRequest compile;
    compile.source = set_aside_host_code(source).text;
    compile.source_path = request.path.string();
    compile.options.include_dirs = request.include_dirs;
    compile.options.defines = request.defines;
    try {
        KernelSpec spec = resolve_kernel_spec(source, request.path);
        compile.name_expressions.push_back(spec.kernel);
        compile.options.defines = merge_defines(spec.defines, request.defines);
        result.spec = std::move(spec);
    } catch (const InputError& error) {
        result.spec_problem = error.what();  // still compile: the diagnostics are what the user wants
    }
    try {
        // The file's include= folders and nvrtc= options, even when the rest of its spec is wrong: an
        // option refused by name is an input error, as at a run.
        const std::optional<KernelSpec> build = result.spec ? result.spec : file_build_settings(source, request.path);
        if (build) {
            compile.options.include_dirs = kernel_include_dirs(*build, request.path, request.include_dirs);
            compile.options.extra = build->nvrtc_options;
        }
    } catch (const InputError& error) {
        result.input_error = error.what();
        return result;
    }
    for (const auto* dir : {&config_.kernels_include_dir, &config_.cuda_include_dir})
        if (!dir->empty()) compile.options.include_dirs.push_back(dir->string());
    try {
        // The request's target, else the file's arch= (sm_90a for wgmma), else the device's.
        const std::string wanted = !request.arch.empty() ? request.arch : result.spec ? result.spec->arch : std::string();
        arch = choose_arch(wanted, request.want_ptx && !request.inspect, 0, query_devices());
        if (request.inspect && arch.rfind("compute_", 0) == 0) arch = "sm_" + arch.substr(8);  // ptxas runs for an sm_
    } catch (const InputError& error) {
        result.input_error = error.what();
        return result;
    }
    compile.options.arch = arch;
    result.compile = cache_.compile(compile);
    return result;
}

RunReport Engine::run(const RunRequest& request) {
    RunReport report;
    report.file = request.kernel_path.string();
    const DeviceQuery devices = query_devices();  // one device query per run
    // A run the window shows replaces the kept output; a side run (a library ceiling, a fault's re-run) leaves it.
    if (request.keep_outputs) kept_view_.clear();
    // A run is cut short only once its checked result has gone: the one gate every phase's check goes through.
    bool checked_sent = false;
    const PartialCallback partial = partial_ ? PartialCallback([&](const RunReport& checked) {
        partial_(checked);
        checked_sent = true;
    }) : nullptr;
    const CutCheck cut = cut_ ? CutCheck([&] { return checked_sent && cut_(); }) : nullptr;
    const EngineServices services{config_, cache_, [this](int ordinal) -> CudaDevice& { return gpu(ordinal); }, inputs_, references_, progress_, partial, cut, devices, kept_view_};
    try {
        run_pipeline(request, report, services);
    } catch (const ApiError& error) {
        report.error = error.what();
        const bool cuda = error.api() == "CUDA";
        report.error_code = cuda ? cuda_error_code(error.code()) : nvrtc_error_code(error.code());
        if (cuda) {
            RunRequest rerun = request;
            if (!report.sizes.empty()) rerun.inputs.size = report.sizes;
            report.fault = explain_cuda_error(error.code(), rerun_command(rerun));
            if (report.fault.sticky)
                if (auto found = gpus_.find(request.device); found != gpus_.end()) found->second->mark_poisoned();
            if (report.stage == Stage::run || report.stage == Stage::check)
                report.error = error.code_name() + " while running " + report.kernel + " (grid " + report.launch.grid.text() + ", block " +
                               report.launch.block.text() + "): " + report.fault.explanation;
        }
    } catch (const ReferenceError& error) {
        report.error = error.what();
        report.error_code = error.code();
        report.error_line = error.line();
        report.stage = Stage::reference;
    } catch (const LaunchRejected& error) {
        report.error = error.what();
        report.error_code = ErrorCode::launch_rejected;
        report.launch_problems = error.problems();
    } catch (const InputError& error) {
        report.error = error.what();
    } catch (const std::bad_alloc&) {
        report.error = "Out of host memory while preparing the run; try smaller inputs.";
    } catch (const std::exception& error) {
        report.error = std::string("Unexpected error: ") + error.what();
    }
    return report;
}

}  // namespace kplay
