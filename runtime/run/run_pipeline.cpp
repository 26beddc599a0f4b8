// The stages of one run on any device: the main size (checked and timed), then the test sizes and a
// second seed (checked), then the ceiling and the verdict.
#include "run/run_pipeline.hpp"
#include "spec/task_sizes.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "base/error.hpp"
#include "base/text.hpp"
#include "client/verdict.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "cuda/bandwidth_ceiling.hpp"
#include "cuda/fault_explanation.hpp"
#include "run/cuda_device.hpp"
#include "run/emulated_device.hpp"
#include "launch/plan.hpp"
#include "run/runner.hpp"
#include "spec/task_declaration.hpp"
#include "spec/source_scan.hpp"
#include "spec/target_arch.hpp"
#include "tasks/task_check.hpp"
#include "tasks/task_inputs.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string to_ptx_arch(const std::string& arch) { return arch.rfind("sm_", 0) == 0 ? "compute_" + arch.substr(3) : arch; }

// The leading number of a check rule, for scaling it (a TF32 baseline rounds 8192x coarser than fp32).
double leading_tolerance(const CheckSpec& check, const NamedValues& values) {
    const std::string& text = check.kind == CheckKind::bound ? check.bound
                              : check.kind == CheckKind::ulp ? check.ulp
                              : !check.rel.empty() && check.text.rfind("rel", 0) == 0 ? check.rel
                                                                                      : check.abs;
    return text.empty() ? 0 : evaluate_real_expr(text, values);
}

// One size's run: its inputs, plan and reference, the launches and the check.
struct SizeRun {
    TaskData data;
    LaunchPlan plan;                   // the first launch
    std::vector<LaunchPlan> following;  // the kplay-launch lines
    std::shared_ptr<const ExpectedOutputs> expected;
    RunnerResult launches;
    CheckReport check;
};

class Pipeline {
public:
    Pipeline(const RunRequest& request, RunReport& report, EngineServices& services)
        : request_(request), report_(report), services_(services) {}

    void run() {
        started_ = std::chrono::steady_clock::now();
        read_spec();
        const bool have_gpu = services_.devices.problem().empty() && request_.device < static_cast<int>(services_.devices.devices.size());
        const bool emulate = request_.emulate || (!have_gpu && request_.emulate_without_gpu);
        if (!library() && !compile(emulate)) return;
        report_.times.compiled_at_ms = ms_since(started_);
        if (!open_device(have_gpu, emulate)) return;
        load();
        report_.times.loaded_at_ms = ms_since(started_);
        std::optional<SizeRun> main = run_size(main_inputs(), true);
        if (!main) return;
        const auto further_start = std::chrono::steady_clock::now();
        if (!library()) check_further_sizes(*main);
        report_.times.further_sizes_ms = ms_since(further_start);
        measure_ceiling(*main);
        report_.times.run_ms = ms_since(started_);
        apply_verdict(report_);
        conclude_check(report_.check);
        if (report_.error.empty()) report_.stage = Stage::done;
    }

private:
    bool library() const { return request_.baseline != Baseline::none; }
    void progress(Phase phase, double fraction = -1) const {
        if (services_.progress) services_.progress(phase, fraction);
    }

    void read_spec() {
        report_.stage = Stage::source;
        source_ = request_.source ? *request_.source : read_source_file(request_.kernel_path);
        report_.stage = Stage::spec;
        spec_ = resolve_kernel_spec(source_, request_.kernel_path, &reference_source_);  // and the reference's text
        spec_.defines = merge_defines(spec_.defines, request_.defines);
        for (const auto& [buffer, init] : request_.init_overrides) override_input_init(spec_.task, buffer, init);
        report_.task = spec_.task.name;
        report_.kernel = library() ? std::string("cuBLAS SGEMM (") + (request_.baseline == Baseline::cublas_tf32 ? "TF32)" : "fp32)")
                                   : spec_.kernel;
        if (library() && spec_.task.cost.gemm.size() != 6)
            throw InputError("Task " + spec_.task.name + " names no GEMM for cuBLAS to time (declare ceiling=cublas gemm=A,B,C,M,N,K).");
        report_.spec = spec_;
    }

    // NVRTC judges the source for every device (diagnostics even without one); the emulated device
    // needs no CUBIN, so PTX will do there.
    bool compile(bool emulate) {
        report_.stage = Stage::compile;
        progress(Phase::compile);
        CompileRequest compile;
        compile.source = source_;
        compile.source_path = request_.kernel_path.string();
        compile.name_expressions = spec_.kernel_expressions();
        // The file's arch= (sm_90a for wgmma) unless the request names one; a GPU that cannot run it is
        // told before NVRTC runs, in words, not as the driver's "no kernel image" at load.
        const std::string& wanted = request_.arch.empty() ? spec_.arch : request_.arch;
        if (!emulate && !wanted.empty() && request_.device < static_cast<int>(services_.devices.devices.size())) {
            const DeviceInfo& device = services_.devices.devices[static_cast<size_t>(request_.device)];
            if (const auto mismatch = arch_mismatch(wanted, device.cc_major, device.cc_minor)) {
                report_.stage = Stage::device;
                throw InputError(request_.kernel_path.filename().string() + ": arch=" + wanted + ": " + *mismatch + " (device " +
                                 std::to_string(device.ordinal) + ", " + device.name + ").");
            }
        }
        compile.options.arch = choose_arch(wanted, emulate, request_.device, services_.devices);
        for (const auto* dir : {&services_.config.kernels_include_dir, &services_.config.cuda_include_dir})
            if (!dir->empty()) compile.options.include_dirs.push_back(dir->string());
        compile.options.defines = spec_.defines;
        report_.compile = services_.compile_cache.compile(compile);
        if (!report_.compile.ok) {
            const int errors = report_.compile.count(Severity::error);
            report_.error = errors ? std::to_string(errors) + (errors == 1 ? " compile error" : " compile errors")
                                   : "Compilation failed: " + report_.compile.failure;
            return false;
        }
        report_.lowered_name = report_.compile.lowered_names.at(spec_.kernel);
        for (const auto& name : spec_.kernel_expressions()) lowered_names_.push_back(report_.compile.lowered_names.at(name));
        return true;
    }

    bool open_device(bool have_gpu, bool emulate) {
        report_.stage = Stage::device;
        if (emulate) {
            // NVRTC has judged the source by now (its diagnostics stand); running it needs a GPU.
            if (const std::string why = emulated_device_refusal(spec_, request_.kernel_path.filename().string()); !why.empty())
                throw InputError(why);
            EmulationSettings settings;
            settings.emu_include_dir = services_.config.emu_include_dir;
            settings.kernels_include_dir = services_.config.kernels_include_dir;
            settings.cache_dir = services_.config.cache_dir;
            settings.order = request_.thread_order;
            settings.order_seed = request_.order_seed;
            settings.workers = request_.emulation_workers;
            settings.timeout_s = request_.emulation_timeout_s;
            settings.thorough = request_.emulation_thorough;
            settings.symbol_check = request_.emulation_symbol_check;
            settings.sandbox = request_.emulation_sandbox;
            emulated_ = std::make_unique<EmulatedDevice>(settings);
            device_ = emulated_.get();
            report_.emulated = true;
            report_.thread_order = request_.thread_order;
            report_.thorough = request_.emulation_thorough;
        } else {
            if (!have_gpu) {
                const DeviceQuery& devices = services_.devices;
                report_.error = devices.problem().empty() ? "No CUDA device " + std::to_string(request_.device) + " (the driver reports " +
                                                                std::to_string(devices.devices.size()) + ")."
                                                          : devices.problem();
                return false;
            }
            gpu_ = &services_.gpu(request_.device);
            if (gpu_->poisoned())
                throw InputError("An earlier kernel fault left this process's CUDA context unusable; a new process is needed.");
            device_ = gpu_;
        }
        report_.device = device_->info();
        return true;
    }

    void load() {
        report_.stage = library() ? Stage::load : device_->load_stage();
        progress(library() || !device_->emulated() ? Phase::gpu : Phase::compile);
        if (library()) loaded_.push_back(device_->library(request_.baseline));
        else loaded_ = device_->load({source_, request_.kernel_path, spec_.kernel_expressions(), lowered_names_, &report_.compile, spec_.defines});
        kernel_ = loaded_.front().get();
        report_.function = kernel_->attributes;
        report_.module_load_ms = kernel_->load_ms;
        report_.host_compile_ms = kernel_->host_compile_ms;
        report_.host_compile_cached = kernel_->host_compile_cached;
    }

    InputRequest main_inputs() const { return request_.inputs; }

    LaunchSettings launch_settings() const { return {request_.block, request_.grid, request_.smem, request_.arg_overrides}; }

    static std::vector<PlanBuffer> plan_buffers(const TaskData& data) {
        std::vector<PlanBuffer> buffers;
        for (const HostBuffer& buffer : data.buffers)
            buffers.push_back({buffer.name, buffer.type, static_cast<int64_t>(buffer.count), buffer.shape, buffer.is_output()});
        return buffers;
    }

    // The launches after the first, each planned like it, with the first launch's block and grid in view.
    std::vector<LaunchPlan> following_plans(const TaskData& data, const LaunchPlan& first) const {
        std::vector<LaunchPlan> plans;
        if (library()) return plans;
        NamedValues names = data.values;
        const char* const axes[] = {"x", "y", "z"};
        const int64_t block[] = {first.launch.block.x, first.launch.block.y, first.launch.block.z};
        const int64_t grid[] = {first.launch.grid.x, first.launch.grid.y, first.launch.grid.z};
        for (int a = 0; a < 3; ++a) {
            names[std::string("block_") + axes[a]] = block[a];
            names[std::string("grid_") + axes[a]] = grid[a];
        }
        const std::vector<PlanBuffer> buffers = plan_buffers(data);
        for (size_t i = 0; i < spec_.following.size(); ++i) {
            const FollowingLaunch& step = spec_.following[i];
            KernelSpec spec = spec_;
            spec.kernel = step.kernel;
            spec.args = step.args;
            spec.block = step.block;
            spec.grid = step.grid;
            spec.smem = step.smem;
            spec.requirement.clear();  // the file's requirement was checked with the first launch
            spec.cluster.clear();      // the annotation's cluster is the first launch's
            const LoadedKernel& kernel = *loaded_.at(kernel_index(step.kernel));
            try {
                plans.push_back(make_plan(spec, names, buffers, {}, device_->info(), &kernel.attributes));
            } catch (const InputError& error) {
                throw InputError(request_.kernel_path.filename().string() + ":" + std::to_string(step.line) + ": the launch of " +
                                 step.kernel + ": " + error.what());
            }
        }
        return plans;
    }

    size_t kernel_index(const std::string& name) const {
        const std::vector<std::string> names = spec_.kernel_expressions();
        return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
    }

    // The sequence the runner launches: the first plan, then the following ones.
    std::vector<PlannedLaunch> sequence(const SizeRun& run) const {
        std::vector<PlannedLaunch> launches{{kernel_, &run.plan, report_.kernel}};
        for (size_t i = 0; i < run.following.size(); ++i)
            launches.push_back({loaded_.at(kernel_index(spec_.following[i].kernel)).get(), &run.following[i], spec_.following[i].kernel});
        return launches;
    }

    LaunchPlan plan_for(const TaskData& data) const {
        const std::vector<PlanBuffer> buffers = plan_buffers(data);
        if (library())
            return make_plan_with_args(spec_, spec_.task.cost.gemm, data.values, buffers, launch_settings(), device_->info(), &kernel_->attributes);
        return make_plan(spec_, data.values, buffers, launch_settings(), device_->info(), &kernel_->attributes);
    }

    std::optional<double> tolerance() const {
        std::optional<double> tolerance = request_.tolerance ? request_.tolerance : spec_.tolerance;
        if (request_.baseline == Baseline::cublas_tf32) {
            // TF32 rounds at 2^-11, not 2^-24: the same rule, 8192 times wider.
            const BufferSpec* primary = spec_.task.primary_output();
            const double leading = tolerance ? *tolerance : primary ? leading_tolerance(primary->check, size_values(spec_.task, spec_.task.sizes.gpu_default)) : 1;
            tolerance = leading * 8192;
        }
        return tolerance;
    }

    ReferenceContext reference_context(const LaunchPlan& plan) const {
        ReferenceContext context;
        context.spec = &spec_;
        context.source = &reference_source_;
        context.path = request_.kernel_path;
        context.plan = &plan;
        context.function = &kernel_->attributes;
        context.request = &request_;
        context.emu_include_dir = services_.config.emu_include_dir;
        context.kernels_include_dir = services_.config.kernels_include_dir;
        context.cache_dir = services_.config.cache_dir;
        return context;
    }

    // One size: the main one fills the report (and is timed); the others return what they found.
    std::optional<SizeRun> run_size(const InputRequest& inputs, bool main) {
        SizeRun run;
        auto stage = [&](Stage stage) {
            if (main) report_.stage = stage;
        };
        stage(Stage::inputs);
        progress(Phase::cpu);
        if (main) {  // the window picks its view from the task, whether or not the arrays are kept
            report_.view.kind = spec_.task.presentation.output;
            if (const BufferSpec* primary = spec_.task.primary_output()) report_.view.buffer = primary->name;
        }
        const auto inputs_start = std::chrono::steady_clock::now();
        run.data = services_.inputs.get(spec_.task, inputs, device_->emulated(), request_.bench_sizes);
        if (main) {
            report_.inputs_ms = ms_since(inputs_start);
            report_.input_description = run.data.description;
            report_.input_identity = run.data.identity;
            report_.sizes = run.data.sizes;
        }

        stage(Stage::launch);
        run.plan = plan_for(run.data);
        run.following = following_plans(run.data, run.plan);
        if (!main) further_launch_ = run.plan.launch;
        if (main) {
            report_.values = run.plan.names;
            report_.launch = run.plan.launch;
            report_.coverage = run.plan.coverage;
            report_.arguments = run.plan.arguments;
            report_.following.clear();
            for (size_t i = 0; i < run.following.size(); ++i) report_.following.push_back({spec_.following[i].kernel, run.following[i].launch});
            device_->prepare(*kernel_, run.plan.launch);  // the shared-memory opt-in first: occupancy counts with it
            report_.occupancy = device_->occupancy(*kernel_, run.plan.launch);
        }

        stage(Stage::reference);
        const ReferenceResult reference = services_.references.expected(reference_context(run.plan), run.data,
                                                                         [&](double fraction) { progress(Phase::cpu, fraction); });
        run.expected = reference.expected;
        if (main) {
            report_.check.reference = reference.description;
            report_.check.reference_ms = reference.ms;
            report_.check.reference_cached = reference.cached;
        }

        stage(Stage::run);
        progress(Phase::gpu);
        RunnerSettings settings;
        settings.timed = main;
        settings.warmup = request_.warmup;
        settings.repeat = request_.repeat;
        settings.flush_l2 = request_.flush_l2;
        settings.rotate_inputs = request_.rotate_inputs;
        bool checked_early = false;
        if (main && request_.progressive && services_.partial)
            settings.after_checked = [&](const RunnerResult& checked) {
                report_.times.launched_at_ms = ms_since(started_);
                check_size(run, checked, main);
                report_.times.checked_at_ms = ms_since(started_);
                checked_early = true;
                send_partial(checked);
            };
        run.launches = run_launches(*device_, sequence(run), run.data, settings);
        if (main) keep_launch_results(run.launches);
        if (main) report_.times.timed_ms = run.launches.timed_ms;
        if (!run.launches.failure.ok) {
            if (main) {
                report_.error = run.launches.failure.error;
                report_.error_code = run.launches.failure.error_code;
                report_.error_line = run.launches.failure.line;
                report_.fault = run.launches.failure.fault;
            }
            run.check.summary = run.launches.failure.error;
            return main ? std::nullopt : std::optional<SizeRun>(std::move(run));
        }

        if (!checked_early) check_size(run, run.launches, main);
        return run;
    }

    // The outputs against the reference; the main size's check fills the report and its view.
    void check_size(SizeRun& run, const RunnerResult& launches, bool main) {
        if (main) report_.stage = Stage::check;
        progress(Phase::cpu);
        RunCheckInput check{&spec_.task, &run.data, &launches.first, run.expected.get(), &launches.inputs_after, tolerance()};
        run.check = check_run(check);
        if (!main) return;
        const CheckReport reference_facts = report_.check;
        report_.check = run.check;
        report_.check.reference = reference_facts.reference;
        report_.check.reference_ms = reference_facts.reference_ms;
        report_.check.reference_cached = reference_facts.reference_cached;
        if (request_.keep_outputs) {
            report_.view = primary_output_view(check);
            if (spec_.task.has_image_input()) keep_input_image(run.data);
        }
    }

    // The first answer of a progressive run: the main size as checked, timed by its checked launches.
    // Its view's arrays go with it only; the final report says they were sent.
    void send_partial(const RunnerResult& checked) {
        OutputView view = std::move(report_.view);  // the arrays move to the partial answer, not copied
        RunReport partial = report_;
        partial.view = std::move(view);
        report_.view = OutputView{partial.view.kind, partial.view.buffer};
        partial.compile.binary.clear();  // as any answer: the diagnostics and the log, not the CUBIN or its PTX
        partial.compile.ptx.clear();
        keep_launch_results_into(checked, partial);
        partial.partial = true;
        partial.stage = Stage::done;
        apply_verdict(partial);
        partial.times.partial_at_ms = ms_since(started_);
        report_.times.partial_at_ms = partial.times.partial_at_ms;
        services_.partial(partial);
        if (partial.view.drawable()) {
            report_.view.input_identity = partial.view.input_identity;
            report_.view_sent_before = true;
        } else {
            report_.view = std::move(partial.view);  // nothing the client keeps: the final answer carries it
        }
        progress(Phase::gpu);  // the timed repeats follow
    }

    void keep_launch_results(const RunnerResult& launches) { keep_launch_results_into(launches, report_); }

    void keep_launch_results_into(const RunnerResult& launches, RunReport& report) const {
        report.kernel_ms = launches.timing;
        report.warmup = launches.warmup;
        report.l2_flushed = launches.l2_flushed;
        report.input_copies = launches.copies;
        report.h2d_ms = launches.h2d_ms;
        report.d2h_ms = launches.d2h_ms;
        report.printf_lines = launches.printf_lines;
        report.printf_dropped = launches.printf_dropped;
        report.warnings = launches.warnings;
        const NamedValues& values = report.values;
        report.bytes = spec_.task.cost.bytes.empty() ? 0 : evaluate_real_expr(spec_.task.cost.bytes, values);
        report.flops = spec_.task.cost.flops.empty() ? 0 : evaluate_real_expr(spec_.task.cost.flops, values);
    }

    // The image the output was made from, so the window shows what the worker decoded (unless the
    // caller says it has it already).
    void keep_input_image(const TaskData& data) {
        for (size_t i = 0; i < data.buffers.size(); ++i) {
            const HostBuffer& buffer = data.buffers[i];
            const BufferSpec& spec = spec_.task.buffers[i];
            if (!buffer.is_input() || spec.init.kind != InitKind::image) continue;
            report_.view.input_identity = data.identity;
            report_.view.input_w = static_cast<int>(data.values.at("w"));
            report_.view.input_h = static_cast<int>(data.values.at("h"));
            if (data.identity != request_.known_input) report_.view.input = planar_rgb(buffer.data, spec.init.layout);
            return;
        }
    }

    // The window shows an input image from RGB planes, whichever layout the kernel reads.
    static std::vector<unsigned char> planar_rgb(const std::vector<unsigned char>& bytes, ImageLayout layout) {
        if (layout == ImageLayout::planar) return bytes;
        const size_t pixels = layout == ImageLayout::gray ? bytes.size() : bytes.size() / 3;
        std::vector<unsigned char> planes(3 * pixels);
        for (size_t p = 0; p < pixels; ++p)
            for (size_t c = 0; c < 3; ++c) planes[c * pixels + p] = layout == ImageLayout::gray ? bytes[p] : bytes[3 * p + c];
        return planes;
    }

    // The test sizes (edge cases) and a second seed, each checked in full. With --size only that size
    // runs, and the second seed runs at it.
    void check_further_sizes(const SizeRun& main) {
        if (!request_.check_test_sizes) return;
        std::vector<std::vector<int64_t>> sizes;
        if (request_.inputs.size.empty() || request_.test_sizes_at_any_size) sizes = spec_.task.sizes.test;
        std::optional<SizeRun> first_test;
        try {
            for (const auto& size : sizes) {
                InputRequest inputs{"", size_values_text(size), request_.inputs.seed};
                std::optional<SizeRun> run = checked_size(inputs);
                if (run && !first_test) first_test = std::move(run);
            }
            // Without a test size that runs (a kernel whose requires= rules them out) the second seed runs at
            // the main size: the request's, or the one the task chose (an image keeps its file instead).
            const std::string size_text = first_test                            ? first_test->data.sizes
                                          : !request_.inputs.size.empty() || spec_.task.has_image_input() ? request_.inputs.size
                                                                                                           : main.data.sizes;
            second_seed(first_test ? *first_test : main, size_text);
        } catch (const ApiError&) {
            // A GPU fault at a further size ends the run: it is reported with that size's launch, and
            // the command that reproduces it runs that size.
            report_.launch = further_launch_;
            report_.sizes = fault_size_;
            throw;
        }
    }

    std::optional<SizeRun> checked_size(const InputRequest& inputs) {
        SizeCheck size;
        size.sizes = inputs.size;
        size.seed = inputs.seed;
        const NamedValues values = size_values(spec_.task, parse_size_values(spec_.task, inputs.size));
        NamedValues names = values;
        names["sms"] = device_->info().sm_count;
        const NamedValues literals = literal_arguments(spec_.args, request_.arg_overrides, values);
        names.insert(literals.begin(), literals.end());
        const NamedValues defines = integer_defines(spec_.defines);
        names.insert(defines.begin(), defines.end());
        names = with_block_names(spec_, launch_settings(), std::move(names));
        if (const auto broken = requirement_broken(spec_, names)) {
            size.skipped = true;
            size.passed = true;
            size.summary = "skipped: " + *broken;
            report_.check.sizes.push_back(size);
            return std::nullopt;
        }
        report_.stage = Stage::run;  // a GPU fault here is reported as the run's
        fault_size_ = inputs.size;
        std::optional<SizeRun> run;
        try {
            run = run_size(inputs, false);
        } catch (const ReferenceError&) {
            throw;
        } catch (const InputError& error) {
            size.summary = error.what();
            report_.check.sizes.push_back(size);
            return std::nullopt;
        }
        size.passed = run->launches.failure.ok && run->check.passed;
        size.summary = run->launches.failure.ok ? run->check.summary : run->launches.failure.error;
        size.error_code = run->launches.failure.error_code;
        report_.check.sizes.push_back(size);
        return run;
    }

    // The same size with other inputs: an output that stays the same while its reference changes is
    // not computed from the inputs (a hard-coded answer, or a kernel that ignores what it reads).
    void second_seed(const SizeRun& first, const std::string& size_text) {
        InputRequest inputs{request_.inputs.image_path, size_text, request_.inputs.seed + 1};
        if (!size_text.empty()) inputs.image_path.clear();
        const std::optional<SizeRun> second = checked_size(inputs);
        if (!second || !second->launches.failure.ok) return;
        if (second->data.identity == first.data.identity) {  // inputs that do not depend on the seed (an image)
            report_.check.sizes.pop_back();
            return;
        }
        report_.check.sizes.back().sizes += " (seed " + std::to_string(inputs.seed) + ")";
        report_.check.input_independent =
            outputs_that_did_not_change(spec_.task, first.data, second->data, *first.expected, *second->expected);
    }

    void measure_ceiling(const SizeRun& main) {
        Ceiling& ceiling = report_.ceiling;
        ceiling.kind = spec_.task.cost.ceiling;
        if (library()) {
            // A library row is its own ceiling.
            ceiling.kind = CeilingKind::cublas;
            ceiling.name = "cuBLAS fp32";
            ceiling.gflops = report_.flops / (report_.kernel_ms.median * 1e-3) / 1e9;
            return;
        }
        if (!gpu_ || !request_.measure_ceiling || ceiling.kind == CeilingKind::none) return;
        auto& cached = gpu_->ceilings();
        if (ceiling.kind == CeilingKind::copy || ceiling.kind == CeilingKind::read_only) {
            const std::string key = spec_name(ceiling.kind);
            auto found = cached.find(key);
            if (found == cached.end() || (request_.remeasure_ceiling && found->second.cached)) {
                gpu_->make_current();
                const Ceiling measured = ceiling.kind == CeilingKind::copy
                                             ? device_copy_ceiling(gpu_->info(), services_.config.cache_dir, request_.remeasure_ceiling)
                                             : device_read_ceiling(gpu_->info(), services_.config.cache_dir, request_.remeasure_ceiling);
                found = cached.insert_or_assign(key, measured).first;
            }
            ceiling = found->second;
            return;
        }
        ceiling.name = "cuBLAS fp32";
        if (request_.defer_library_ceiling) {
            ceiling.deferred = true;
            return;
        }
        const std::string key = "cublas:" + main.data.sizes;
        if (!cached.count(key)) cached[key] = measure_cublas(main);
        ceiling = cached[key];
    }

    // cuBLAS SGEMM on this run's inputs, timed like a kernel.
    Ceiling measure_cublas(const SizeRun& main) {
        Ceiling ceiling;
        ceiling.kind = CeilingKind::cublas;
        ceiling.name = "cuBLAS fp32";
        const std::unique_ptr<LoadedKernel> library = device_->library(Baseline::cublas_fp32);
        TaskData data = main.data;
        const LaunchPlan plan = make_plan_with_args(spec_, spec_.task.cost.gemm, data.values, plan_buffers(data), {}, device_->info(),
                                                    &library->attributes);
        RunnerSettings settings;
        settings.warmup = 2;
        settings.repeat = 10;
        settings.flush_l2 = request_.flush_l2;
        const RunnerResult timed = run_launches(*device_, {{library.get(), &plan, "cuBLAS"}}, data, settings);
        ceiling.ms = timed.timing.median;
        if (ceiling.ms > 0) ceiling.gflops = report_.flops / (ceiling.ms * 1e-3) / 1e9;
        return ceiling;
    }

    const RunRequest& request_;
    RunReport& report_;
    EngineServices& services_;
    std::string source_;
    std::string reference_source_;  // source_ with the host reference's headers expanded
    KernelSpec spec_;
    std::unique_ptr<EmulatedDevice> emulated_;
    CudaDevice* gpu_ = nullptr;
    Device* device_ = nullptr;
    std::vector<std::unique_ptr<LoadedKernel>> loaded_;  // by kernel_expressions(), or the library
    LoadedKernel* kernel_ = nullptr;                      // the first launch's
    std::vector<std::string> lowered_names_;
    std::chrono::steady_clock::time_point started_;
    std::string fault_size_;      // the further size being run
    LaunchConfig further_launch_;  // and its launch
};

}  // namespace

std::string choose_arch(const std::string& requested, bool want_ptx, int device, const DeviceQuery& query) {
    std::string arch = requested;
    if (arch.empty()) arch = device < static_cast<int>(query.devices.size()) ? query.devices[device].arch() : kDefaultArch;
    if (want_ptx) arch = to_ptx_arch(arch);
    check_arch_supported(arch);
    return arch;
}


void run_pipeline(const RunRequest& request, RunReport& report, EngineServices& services) { Pipeline(request, report, services).run(); }

}  // namespace kplay
