// The steps of one size, each handing its value to the next.
#include "run/size_run.hpp"

#include "base/error.hpp"
#include "device/constant_fill.hpp"
#include "tasks/image_inputs.hpp"
#include "tasks/task_check.hpp"

namespace kplay {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// The shared-memory opt-in first: occupancy counts with it.
Occupancy occupancy_of(const SizeContext& context, const LaunchConfig& launch) {
    context.device.prepare(context.kernels.first(), launch);
    return context.device.occupancy(context.kernels.first(), launch);
}

ReferenceResult expected_outputs(const SizeContext& context, const TaskData& data, const LaunchPlan& plan) {
    ReferenceContext reference;
    reference.spec = &context.file.spec;
    reference.source = &context.file.reference_source;
    reference.path = context.request.kernel_path;
    reference.plan = &plan;
    reference.function = &context.kernels.first().attributes;
    reference.request = &context.request;
    reference.emu_include_dir = context.services.config.emu_include_dir;
    reference.kernels_include_dir = context.services.config.kernels_include_dir;
    reference.cache_dir = context.services.config.cache_dir;
    return context.services.references.expected(reference, data,
                                                [&](double fraction) { context.services.report_progress(Phase::cpu, fraction); });
}

// The sequence the runner launches: the first plan, then the following ones.
std::vector<PlannedLaunch> sequence(const SizeContext& context, const SizePlan& plan) {
    std::vector<PlannedLaunch> launches{{&context.kernels.first(), &plan.first, context.source.name()}};
    for (size_t i = 0; i < plan.following.size(); ++i) {
        const std::string& kernel = context.file.spec.following[i].kernel;
        launches.push_back({&context.kernels.named(kernel), &plan.following[i], kernel});
    }
    return launches;
}

RunCheckInput check_input(const SizeContext& context, const SizeRun& run, const RunnerResult& launches) {
    return {&context.file.spec.task, run.data.get(), &launches.first, &launches.final, run.reference->expected.get(),
            &launches.inputs_changed, context.source.tolerance(), launches.on_device};
}

CheckReport check_outputs(const SizeContext& context, const SizeRun& run, const RunnerResult& launches) {
    context.services.report_progress(Phase::cpu);
    return check_run(check_input(context, run, launches));
}

// The task's __constant__ arrays go into every kernel's module before the reference runs: writing one
// checks its length against the module's array, so a declaration that disagrees is that message, not a
// reference failing on an array of another size. The runner writes them again before its launches.
void fill_constants(const SizeContext& context, const SizeRun& run) {
    std::vector<LoadedKernel*> kernels;
    for (const PlannedLaunch& launch : sequence(context, *run.plan)) kernels.push_back(launch.kernel);
    write_constants(context.device, kernels, *run.data);
}

// The launches, then the check: right after the checked launches when the caller hears of them, else
// after the timed repeats.
void launch_and_check(const SizeContext& context, const SizeSettings& settings, SizeRun& run) {
    run.stage = Stage::run;
    // The emulated device's launches are CPU work with a budget of their own (emulated_time_budget), not
    // the GPU's watchdog limit.
    context.services.report_progress(context.device.emulated() ? Phase::cpu : Phase::gpu);
    RunnerSettings runner = settings.runner;
    if (settings.after_checked)
        runner.after_checked = [&](const RunnerResult& checked) {
            const Clock::time_point read_back = Clock::now();
            run.stage = Stage::check;
            run.check = check_outputs(context, run, checked);
            settings.after_checked(run, checked, read_back);
        };
    run.launches = run_launches(context.device, sequence(context, *run.plan), *run.data, runner);
    if (!run.launches->failure.ok) return;
    run.stage = Stage::check;
    if (!run.check) run.check = check_outputs(context, run, *run.launches);
    // The timed launches must have computed what the checked ones did (no answer replayed from before).
    if (!run.launches->timed_last.empty()) {
        run.check->replayed = replayed_outputs(check_input(context, run, *run.launches), *run.check, run.launches->timed_last);
        if (!run.check->replayed.empty()) conclude_check(*run.check);
    }
}

// An element asked about (who wrote it) that no buffer holds: why, with the buffers there are.
void refuse_missing_elements(const std::vector<ElementRef>& elements, const TaskData& data) {
    for (const ElementRef& element : elements) {
        const std::string asked = "who wrote '" + element.buffer + "[" + std::to_string(element.index) + "]': ";
        std::string names;
        const HostBuffer* found = nullptr;
        for (const HostBuffer& buffer : data.buffers) {
            if (buffer.constant) continue;
            names += (names.empty() ? "" : ", ") + buffer.name;
            if (buffer.name == element.buffer) found = &buffer;
        }
        if (!found) throw InputError(asked + "the task has no buffer named '" + element.buffer + "' (its buffers: " + names + ")");
        if (element.index >= found->count)
            throw InputError(asked + "'" + found->name + "' has " + std::to_string(found->count) + " elements at this size, " + found->name +
                             "[0] to " + found->name + "[" + std::to_string(found->count - 1) + "]");
    }
}

}  // namespace

RunnerSettings runner_settings(const RunRequest& request, bool timed) {
    RunnerSettings settings;
    settings.timed = timed;
    settings.warmup = request.warmup;
    settings.repeat = request.repeat;
    settings.flush_l2 = request.flush_l2;
    settings.rotate_inputs = request.rotate_inputs;
    settings.keep_timed_outputs = timed;
    return settings;
}

SizeRun run_size(const SizeContext& context, const SizeSettings& settings) {
    SizeRun run;
    try {
        context.services.report_progress(Phase::cpu);
        const Clock::time_point inputs_start = Clock::now();
        run.data = context.services.inputs.get(context.file.spec.task, settings.inputs, context.device.emulated(), context.request.bench_sizes);
        run.inputs_ms = ms_since(inputs_start);
        refuse_missing_elements(settings.asked_about, *run.data);

        run.stage = Stage::launch;
        try {
            run.plan = context.source.plan(*run.data, context.kernels, context.device);
        } catch (const ArgumentsRejected& rejected) {
            run.unbound = rejected.plan();
            throw;
        }
        if (settings.occupancy) run.occupancy = occupancy_of(context, run.plan->first.launch);
        fill_constants(context, run);

        run.stage = Stage::reference;
        run.reference = expected_outputs(context, *run.data, run.plan->first);

        launch_and_check(context, settings, run);
    } catch (...) {
        run.stopped = std::current_exception();
    }
    return run;
}

void keep_full_view(const SizeContext& context, const SizeRun& run, const RunnerResult& launches) {
    keep_primary_output(check_input(context, run, launches), run.reference->expected, context.services.kept_view);
}

OutputView output_view(const SizeContext& context, const SizeRun& run, const RunnerResult& launches) {
    OutputView view = primary_output_view(check_input(context, run, launches), context.request.view_side);
    if (view.step > 1) view.full_view_key = context.services.kept_view.next_key();
    const TaskSpec& task = context.file.spec.task;
    if (!task.has_image_input()) return view;
    const TaskData& data = *run.data;
    for (size_t i = 0; i < data.buffers.size(); ++i) {
        const HostBuffer& buffer = data.buffers[i];
        const BufferSpec& spec = task.buffers[i];
        if (!buffer.is_input() || spec.init.kind != InitKind::image) continue;
        view.input_identity = data.identity;
        view.input_w = static_cast<int>(data.values.at("w"));
        view.input_h = static_cast<int>(data.values.at("h"));
        if (data.identity != context.request.known_input) view.input = image_input_planes(buffer, spec.init);
        break;
    }
    return view;
}

}  // namespace kplay
