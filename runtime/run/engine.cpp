// The path of one run, stage by stage; each stage hands a value to the next and nothing reaches back.
#include "run/engine.hpp"
#include "run/engine_stages.hpp"

#include <chrono>

#include "base/cache_dir.hpp"
#include "cuda/cuda_context.hpp"
#include "cuda/cublas_baseline.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/driver.hpp"
#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "cuda/l2_flush.hpp"
#include "spec/source_scan.hpp"
#include "tasks/task_registry.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string to_ptx_arch(const std::string& arch) {
    return arch.rfind("sm_", 0) == 0 ? "compute_" + arch.substr(3) : arch;
}

// The architecture to compile for: the request's, else the device's exact chip, else the default PTX.
std::string choose_arch(const std::string& requested, bool want_ptx, int device, const DeviceQuery& query) {
    std::string arch = requested;
    if (arch.empty()) arch = device < static_cast<int>(query.devices.size()) ? query.devices[device].arch() : kDefaultArch;
    if (want_ptx) arch = to_ptx_arch(arch);
    check_arch_supported(arch);
    return arch;
}

Dim3 to_dim3(const std::vector<int64_t>& values) {
    Dim3 dim;
    if (values.size() > 0) dim.x = values[0];
    if (values.size() > 1) dim.y = values[1];
    if (values.size() > 2) dim.z = values[2];
    return dim;
}

std::vector<int64_t> evaluate_all(const std::vector<std::string>& expressions, const NamedValues& names, const char* what) {
    std::vector<int64_t> values;
    for (const auto& expression : expressions) {
        try {
            values.push_back(evaluate_int_expr(expression, names));
        } catch (const InputError& error) {
            throw InputError(std::string(what) + ": " + error.what());
        }
    }
    return values;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> merge_defines(std::vector<std::pair<std::string, std::string>> base,
                                                                const std::vector<std::pair<std::string, std::string>>& extra) {
    for (const auto& [name, value] : extra) {
        bool replaced = false;
        for (auto& entry : base)
            if (entry.first == name) { entry.second = value; replaced = true; }
        if (!replaced) base.emplace_back(name, value);
    }
    return base;
}

LaunchConfig resolve_launch(const RunRequest& request, const KernelSpec& spec, const Task& task, const TaskData& data,
                            const DeviceInfo& device, const FunctionAttributes* function, NamedValues& names, RunReport& report) {
    names = data.values;
    names["sms"] = device.sm_count;  // lets an annotation size a grid-stride grid: grid=sms*8
    const NamedValues literals = literal_arguments(spec.args, request.arg_overrides, data.values);
    names.insert(literals.begin(), literals.end());
    LaunchConfig launch;
    launch.block = to_dim3(request.block ? *request.block : evaluate_all(spec.block, names, "block"));
    const std::vector<int64_t> grid = request.grid ? *request.grid : evaluate_all(spec.grid, names, "grid");
    const auto extent = task.extent(data, spec.launch_dims);
    launch.auto_grid = grid.empty();
    launch.grid = launch.auto_grid ? auto_grid(extent, launch.block) : to_dim3(grid);
    launch.dynamic_smem = request.smem ? *request.smem
                          : spec.smem.empty() ? 0
                                              : evaluate_all({spec.smem}, names, "smem").front();
    report.launch = launch;
    report.coverage = compute_coverage(launch, extent, spec.launch_dims);
    const auto problems = function ? validate_launch(launch, device.limits, function) : std::vector<std::string>{};
    if (!problems.empty()) {
        std::string text = "Invalid launch configuration:";
        for (const auto& problem : problems) text += "\n  - " + problem;
        throw InputError(text);
    }
    return launch;
}

void compute_rates(const Task& task, const TaskData& data, RunReport& report) {
    report.bytes = task.bytes_moved(data);
    report.flops = task.flops(data);
    if (report.kernel_ms.median > 0) {
        report.gbps = report.bytes / (report.kernel_ms.median * 1e-3) / 1e9;
        report.gflops = report.flops / (report.kernel_ms.median * 1e-3) / 1e9;
    }
}

void keep_outputs_for_window(const RunRequest& request, const KernelSpec& spec, const Task& task, const TaskData& data,
                             RunReport& report) {
    if (!request.keep_outputs) return;
    // Images are shown as they are; a matmul's C is not (its error map is), so it stays here.
    if (spec.task == "grayscale")
        for (const HostBuffer& host : data.buffers)
            if (host.is_output) {
                report.output = host.data;
                break;
            }
    const auto shape = task.extent(data, 2);
    report.output_w = static_cast<int>(shape[0]);
    report.output_h = static_cast<int>(shape[1]);
    if (spec.task == "grayscale") {
        report.input_identity = data.identity;
        if (data.identity != request.known_input) report.input = data.find("in")->data;
        report.input_w = report.output_w;
        report.input_h = report.output_h;
    }
}

std::string rerun_command(const RunRequest& request) {
    std::string command = "kplay-cli run " + request.kernel_path.string();
    if (!request.inputs.image_path.empty()) command += " --image " + request.inputs.image_path;
    if (!request.inputs.size.empty()) command += " --size " + request.inputs.size;
    auto dims = [](const std::vector<int64_t>& values) {
        std::string text;
        for (auto v : values) text += (text.empty() ? "" : ",") + std::to_string(v);
        return text;
    };
    if (request.block) command += " --block " + dims(*request.block);
    if (request.grid && !request.grid->empty()) command += " --grid " + dims(*request.grid);
    if (request.smem) command += " --smem " + std::to_string(*request.smem);
    for (const auto& [name, value] : request.arg_overrides) command += " --arg " + name + "=" + value;
    for (const auto& [name, value] : request.defines) command += " -D " + name + (value.empty() ? "" : "=" + value);
    return command + " --warmup 0 --repeat 1";
}

EngineConfig default_engine_config() {
    EngineConfig config;
    config.cache_dir = default_cache_dir();
    const fs::path kernels = kernels_dir();
    if (!kernels.empty()) config.kernels_include_dir = kernels / "include";
    config.cuda_include_dir = cuda_include_dir();
    config.emu_include_dir = emulated_include_dir();
    return config;
}

// Per-device state that outlives one run: the context and the measured copy ceiling.
struct Engine::DeviceState {
    DeviceInfo info;
    PrimaryContext context;
    std::optional<CopyCeiling> ceiling;
    bool ceiling_fresh = false;  // measured in this process, not read from the cache file
    std::unique_ptr<L2Flusher> l2_flusher;  // made once: reads a 2x-L2 buffer between timed launches
    bool poisoned = false;  // a sticky fault happened; the context cannot be used again in this process
    DeviceState(DeviceInfo device) : info(std::move(device)), context(info.ordinal) {}
};

Engine::Engine(EngineConfig config) : config_(std::move(config)), cache_(config_.cache_dir) {}

Engine::~Engine() = default;

DeviceQuery Engine::devices() const { return query_devices(); }

int64_t Engine::device_memory_in_use() {
    if (devices_.empty()) return -1;
    devices_.begin()->second->context.make_current();
    size_t free = 0, total = 0;
    if (driver_api().cuMemGetInfo(&free, &total) != CUDA_SUCCESS) return -1;
    return static_cast<int64_t>(total - free);
}

Engine::DeviceState& Engine::device_state(int ordinal) {
    auto& slot = devices_[ordinal];
    if (!slot) slot = std::make_unique<DeviceState>(describe_device(ordinal));
    slot->context.make_current();
    return *slot;
}

CompileRequest Engine::make_compile_request(const std::string& source, const fs::path& path,
                                            const std::vector<std::string>& names, const std::string& arch,
                                            const std::vector<std::pair<std::string, std::string>>& defines) const {
    CompileRequest request;
    request.source = source;
    request.source_path = path.string();
    request.name_expressions = names;
    request.options.arch = arch;
    if (!config_.kernels_include_dir.empty()) request.options.include_dirs.push_back(config_.kernels_include_dir.string());
    if (!config_.cuda_include_dir.empty()) request.options.include_dirs.push_back(config_.cuda_include_dir.string());
    request.options.defines = defines;
    return request;
}

CompileFileResult Engine::compile_file(const CompileFileRequest& request) {
    CompileFileResult result;
    std::string source;
    std::string arch;
    try {
        source = request.source ? *request.source : read_source_file(request.path);
        arch = choose_arch(request.arch, request.want_ptx, 0, query_devices());
    } catch (const InputError& error) {
        result.input_error = error.what();
        return result;
    }
    std::vector<std::string> names;
    std::vector<std::pair<std::string, std::string>> defines = request.defines;
    try {
        KernelSpec spec = resolve_kernel_spec(source, request.path);
        names.push_back(spec.kernel);
        defines = merge_defines(spec.defines, request.defines);
        result.spec = std::move(spec);
    } catch (const InputError& error) {
        result.spec_problem = error.what();  // still compile: the diagnostics are what the user wants
    }
    result.compile = cache_.compile(make_compile_request(source, request.path, names, arch, defines));
    return result;
}

RunReport Engine::run(const RunRequest& request) {
    RunReport report;
    report.file = request.kernel_path.string();
    try {
        run_stages(request, report);
    } catch (const ApiError& error) {
        report.error = error.what();
        report.error_code = error.code_name();
        if (error.api() == "CUDA") {
            report.fault = explain_cuda_error(error.code(), rerun_command(request));
            if (report.fault.sticky)
                if (auto found = devices_.find(request.device); found != devices_.end()) found->second->poisoned = true;
            if (report.stage == "run" || report.stage == "check")
                report.error = error.code_name() + " while running " + report.kernel + " (grid " + report.launch.grid.text() +
                               ", block " + report.launch.block.text() + "): " + report.fault.explanation;
        }
    } catch (const InputError& error) {
        report.error = error.what();
    } catch (const std::bad_alloc&) {
        report.error = "Out of host memory while preparing the run; try smaller inputs.";
    } catch (const std::exception& error) {
        report.error = std::string("Unexpected error: ") + error.what();
    }
    report.compile.binary.clear();  // the report carries diagnostics, not the binary
    return report;
}

TaskData Engine::make_inputs_cached(const Task& task, const InputRequest& request) {
    // An image file is identified by its path, size and modification time, so an edited image reloads.
    std::string key = task.name() + "|" + request.image_path + "|" + request.size + "|" + std::to_string(request.seed);
    if (!request.image_path.empty()) {
        std::error_code error;
        const auto size = fs::file_size(request.image_path, error);
        const auto time = fs::last_write_time(request.image_path, error);
        key += "|" + std::to_string(size) + "|" + std::to_string(time.time_since_epoch().count());
    }
    for (const auto& [cached_key, data] : input_cache_)
        if (cached_key == key) return *data;
    auto data = std::make_shared<const TaskData>(task.make_inputs(request));
    input_cache_.insert(input_cache_.begin(), {key, data});
    if (input_cache_.size() > 2) input_cache_.pop_back();
    return *data;
}

void Engine::run_stages(const RunRequest& request, RunReport& report) {
    // Spec (a library baseline has none: it is a matmul done by cuBLAS).
    const bool baseline = !request.baseline.empty();
    if (baseline && request.baseline != "cublas-fp32" && request.baseline != "cublas-tf32")
        throw InputError("Unknown baseline '" + request.baseline + "' (known: cublas-fp32, cublas-tf32).");
    KernelSpec spec;
    std::string source;
    if (baseline) {
        spec.task = "matmul";
        spec.kernel = request.baseline == "cublas-tf32" ? "cuBLAS SGEMM (TF32)" : "cuBLAS SGEMM (fp32)";
        spec.tolerance = request.baseline == "cublas-tf32" ? 2.0 * 8192 : 2.0;  // TF32 rounds at 2^-11, not 2^-24
    } else {
        report.stage = "input";
        source = request.source ? *request.source : read_source_file(request.kernel_path);
        report.stage = "spec";
        spec = resolve_kernel_spec(source, request.kernel_path);
        spec.defines = merge_defines(spec.defines, request.defines);
    }
    report.task = spec.task;
    report.kernel = spec.kernel;
    if (!baseline) report.spec = spec;
    const Task& task = *find_task(spec.task);

    // Compile (diagnostics even without a device).
    report.stage = "compile";
    const DeviceQuery devices = query_devices();
    const bool have_device = devices.problem().empty() && request.device < static_cast<int>(devices.devices.size());
    if (!baseline) {
        progress("compile");
        // The emulated device needs no CUBIN: NVRTC only judges the source there, so PTX will do.
        const bool emulating = request.emulate || (!have_device && request.emulate_without_gpu);
        const std::string arch = choose_arch(request.arch, emulating, request.device, devices);  // one device query per run
        report.compile = cache_.compile(make_compile_request(source, request.kernel_path, {spec.kernel}, arch, spec.defines));
        if (!report.compile.ok) {
            const int errors = report.compile.count(Severity::error);
            report.error = errors ? std::to_string(errors) + (errors == 1 ? " compile error" : " compile errors")
                                  : "Compilation failed: " + report.compile.failure;
            return;
        }
        report.lowered_name = report.compile.lowered_names.at(spec.kernel);
    }

    // The emulated device, when asked for or when there is no GPU to run on.
    if (request.emulate || (!have_device && request.emulate_without_gpu)) {
        if (baseline) throw InputError("cuBLAS rows need a CUDA device; the emulated CPU device runs kernel files only.");
        run_emulated_stages(request, report, spec, source, task);
        return;
    }

    // Device.
    report.stage = "device";
    if (!have_device && request.keep_outputs && spec.task == "grayscale") {
        // No device, but the window still shows the input image (decoded here, in the worker).
        progress("cpu");
        TaskData data = make_inputs_cached(task, request.inputs);
        const auto shape = task.extent(data, 2);
        report.input_identity = data.identity;
        if (data.identity != request.known_input) report.input = data.find("in")->data;
        report.input_w = static_cast<int>(shape[0]);
        report.input_h = static_cast<int>(shape[1]);
        report.input_description = data.description;
    }
    if (!have_device) {
        report.error = devices.problem().empty()
                           ? "No CUDA device " + std::to_string(request.device) + " (the driver reports " +
                                 std::to_string(devices.devices.size()) + ")."
                           : devices.problem();
        return;
    }
    DeviceState& device = device_state(request.device);
    report.device = device.info;
    if (device.poisoned)
        throw InputError("An earlier kernel fault left this process's CUDA context unusable; a new process is needed.");
    if (baseline && !CublasLibrary::get().available()) throw InputError(CublasLibrary::get().why());

    // Module.
    report.stage = "load";
    progress("gpu");
    auto load_start = std::chrono::steady_clock::now();
    Module module;
    KernelFunction function;
    if (!baseline) {
        module = Module::load(report.compile.binary);
        function = module.function(report.lowered_name);
        report.function = function.attributes();
    }
    report.module_load_ms = ms_since(load_start);

    // Inputs.
    report.stage = "inputs";
    progress("cpu");
    auto inputs_start = std::chrono::steady_clock::now();
    TaskData data = make_inputs_cached(task, request.inputs);
    report.inputs_ms = ms_since(inputs_start);
    progress("gpu");
    report.input_description = data.description;

    // Launch configuration.
    report.stage = "launch";
    NamedValues names;
    const LaunchConfig launch = resolve_launch(request, spec, task, data, device.info, baseline ? nullptr : &report.function, names, report);
    if (!baseline && launch.dynamic_smem > device.info.limits.max_smem_per_block)
        function.allow_dynamic_smem(static_cast<int>(launch.dynamic_smem));
    const int block_threads = static_cast<int>(launch.block.volume());
    if (!baseline) report.occupancy.blocks_per_sm = function.max_active_blocks_per_sm(block_threads, launch.dynamic_smem);
    const int warps_per_block = (block_threads + device.info.limits.warp_size - 1) / device.info.limits.warp_size;
    report.occupancy.fraction = device.info.max_threads_per_sm > 0
                                    ? static_cast<double>(report.occupancy.blocks_per_sm * warps_per_block * device.info.limits.warp_size) /
                                          device.info.max_threads_per_sm
                                    : 0;

    // Device buffers and arguments.
    report.stage = "run";
    auto h2d_start = std::chrono::steady_clock::now();
    std::vector<DeviceBuffer> buffers;
    std::map<std::string, uint64_t> pointers;
    for (const HostBuffer& host : data.buffers) {
        buffers.emplace_back(host.bytes());
        if (!host.is_output) buffers.back().upload(host.data.data(), host.bytes());
        pointers[host.name] = buffers.back().get();
    }
    report.h2d_ms = ms_since(h2d_start);
    const KernelDecl* declaration = spec.declaration();
    if (!baseline) report.arguments = bind_arguments(spec.kernel, spec.args, names, pointers, report.function.params, declaration);

    // Rotation: inputs small enough to stay in L2 get copies, one per timed launch in turn, so a
    // repeat cannot be served from the cache the previous one warmed.
    size_t input_bytes = 0;
    for (const HostBuffer& host : data.buffers)
        if (!host.is_output) input_bytes += host.bytes();
    const size_t l2 = static_cast<size_t>(std::max(device.info.l2_bytes, 0));
    const int copies = request.rotate_inputs && input_bytes > 0 && input_bytes < l2
                           ? static_cast<int>(std::min<size_t>(32, (2 * l2 + input_bytes - 1) / input_bytes))
                           : 1;
    report.input_copies = copies;
    std::vector<DeviceBuffer> extra_inputs;
    std::vector<std::map<std::string, uint64_t>> pointer_sets{pointers};
    for (int copy = 1; copy < copies; ++copy) {
        auto set = pointers;
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            if (data.buffers[i].is_output) continue;
            extra_inputs.emplace_back(data.buffers[i].bytes());
            KPLAY_CU(driver_api().cuMemcpyDtoDAsync(extra_inputs.back().get(), buffers[i].get(), data.buffers[i].bytes(), nullptr));
            set[data.buffers[i].name] = extra_inputs.back().get();
        }
        pointer_sets.push_back(std::move(set));
    }
    std::vector<std::vector<BoundArgument>> argument_sets{report.arguments};
    for (int copy = 1; copy < copies && !baseline; ++copy)
        argument_sets.push_back(bind_arguments(spec.kernel, spec.args, names, pointer_sets[copy], report.function.params, declaration));
    std::vector<std::vector<void*>> argument_pointers(argument_sets.size());
    for (size_t set = 0; set < argument_sets.size(); ++set)
        for (auto& argument : argument_sets[set]) argument_pointers[set].push_back(argument.storage);

    Stream stream = Stream::create();
    Event start = Event::create(), stop = Event::create();
    if (request.flush_l2 && device.info.l2_bytes > 0 && !device.l2_flusher)
        device.l2_flusher = std::make_unique<L2Flusher>(device.info);
    report.l2_flushed = request.flush_l2 && device.l2_flusher;

    int launch_index = 0;
    auto poison_outputs = [&] {
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            const HostBuffer& host = data.buffers[i];
            if (!host.is_output) continue;
            const uint32_t pattern = host.poison[launch_index % 2];
            if (host.type == ElementType::u8) buffers[i].fill_bytes(static_cast<unsigned char>(pattern), stream);
            else buffers[i].fill_words(pattern, stream);
        }
        ++launch_index;
    };
    auto launch_kernel = [&](int set) {
        if (baseline) {
            const auto& p = pointer_sets[set];
            CublasLibrary::get().sgemm(stream.get(), request.baseline == "cublas-tf32", static_cast<int>(data.values.at("M")),
                                       static_cast<int>(data.values.at("N")), static_cast<int>(data.values.at("K")), p.at("a"),
                                       p.at("b"), p.at("c"));
            return;
        }
        KPLAY_CU(driver_api().cuLaunchKernel(function.get(), static_cast<unsigned>(launch.grid.x), static_cast<unsigned>(launch.grid.y),
                                             static_cast<unsigned>(launch.grid.z), static_cast<unsigned>(launch.block.x),
                                             static_cast<unsigned>(launch.block.y), static_cast<unsigned>(launch.block.z),
                                             static_cast<unsigned>(launch.dynamic_smem), stream.get(), argument_pointers[set].data(),
                                             nullptr));
    };
    auto download_outputs = [&](std::vector<HostBuffer>* into) {
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            HostBuffer& host = data.buffers[i];
            if (!host.is_output) continue;
            host.data.resize(host.bytes());
            buffers[i].download(host.data.data(), host.bytes());
            if (into) into->push_back(host);
        }
    };

    // Two checked launches with different poison, so an unwritten element can never pass.
    std::vector<HostBuffer> first_outputs;
    poison_outputs();
    launch_kernel(0);
    stream.synchronize();
    download_outputs(&first_outputs);
    poison_outputs();
    launch_kernel(copies > 1 ? 1 : 0);  // a rotated copy must compute the same
    stream.synchronize();
    auto d2h_start = std::chrono::steady_clock::now();
    download_outputs(nullptr);
    report.d2h_ms = ms_since(d2h_start);

    // Timing: warm-ups, then repeats each preceded (outside the events) by poison and an L2 flush.
    report.warmup = std::max(0, request.warmup);
    for (int i = 0; i < report.warmup; ++i) {
        poison_outputs();
        launch_kernel(i % copies);
    }
    std::vector<double> samples;
    for (int i = 0; i < std::max(1, request.repeat); ++i) {
        poison_outputs();
        if (report.l2_flushed) device.l2_flusher->flush(stream);
        start.record(stream);
        launch_kernel(i % copies);
        stop.record(stream);
        stop.synchronize();
        samples.push_back(Event::elapsed_ms(start, stop));
    }
    report.kernel_ms = summarize_timings(samples);

    compute_rates(task, data, report);
    if (request.measure_ceiling) {
        if (!device.ceiling || (request.remeasure_ceiling && !device.ceiling_fresh)) {
            device.ceiling = device_copy_ceiling(device.info, config_.cache_dir, request.remeasure_ceiling);
            device.ceiling_fresh = device.ceiling_fresh || request.remeasure_ceiling;
        }
        report.ceiling = *device.ceiling;
        if (report.ceiling.gbps > 0) report.percent_of_ceiling = 100.0 * report.gbps / report.ceiling.gbps;
    }

    // Check against the CPU reference.
    report.stage = "check";
    progress("cpu");
    const double tolerance = request.tolerance ? *request.tolerance : spec.tolerance ? *spec.tolerance : -1.0;
    report.check = task.check(data, first_outputs, tolerance, request.keep_outputs);
    keep_outputs_for_window(request, spec, task, data, report);
    report.stage = "done";
}

}  // namespace kplay
