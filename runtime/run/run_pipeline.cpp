// The stages of one run in order: read, compile, open the device, load; the main size (checked and
// timed, a progressive run's first answer sent from it); the test sizes and a second seed (checked);
// the ceiling and the verdict.
#include "run/run_pipeline.hpp"

#include <chrono>
#include <memory>
#include <optional>

#include "base/error.hpp"
#include "run/compile_kernels.hpp"
#include "run/further_sizes.hpp"
#include "run/launch_source.hpp"
#include "run/measure_ceiling.hpp"
#include "run/open_device.hpp"
#include "run/read_file.hpp"
#include "run/report_assembly.hpp"
#include "run/size_run.hpp"

namespace kplay {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point start, Clock::time_point end) { return std::chrono::duration<double, std::milli>(end - start).count(); }
double ms_since(Clock::time_point start) { return ms_between(start, Clock::now()); }

// The first answer of a progressive run: the main size as checked, timed by its checked launches. The
// view's arrays go with it only; the final report says they were sent.
void send_partial(const SizeContext& context, RunReport& report, const SizeRun& run, const RunnerResult& checked, Clock::time_point started) {
    OutputView view = context.request.keep_outputs ? output_view(context, run, checked) : report.view;
    RunReport partial = partial_answer(report, std::move(view), checked, context.file.spec);
    partial.times.partial_at_ms = ms_since(started);
    context.services.partial(partial);
    // The final report says when it had left: its arrays put in shared memory and the frame written
    // (the window's trace compares this with when it read it).
    report.times.partial_at_ms = ms_since(started);
    report.view = OutputView{partial.view.kind, partial.view.buffer};
    // After the answer has left: the copies for a full-resolution view cost the first result nothing.
    if (partial.view.step > 1) keep_full_view(context, run, checked);
    if (partial.view.drawable()) {
        report.view.input_identity = partial.view.input_identity;
        report.view_sent_before = true;
    } else {
        report.view = std::move(partial.view);  // nothing the client keeps: the final answer carries it
    }
    context.services.report_progress(context.device.emulated() ? Phase::cpu : Phase::gpu);  // the timed repeats follow
}

// The main size: checked and timed; its figures are the report's. Nothing comes back when its launches
// failed (the report says why).
std::optional<SizeRun> run_main_size(const SizeContext& context, RunReport& report, Clock::time_point started) {
    const RunRequest& request = context.request;
    // The window picks its view from the task, whether or not the arrays are kept.
    const TaskSpec& task = context.file.spec.task;
    report.view.kind = task.presentation.output;
    if (const BufferSpec* primary = task.primary_output()) report.view.buffer = primary->name;

    SizeSettings settings{request.inputs, runner_settings(request, true), true, request.who_wrote, {}};
    bool sent_partial = false;
    if (request.progressive && context.services.partial) {
        settings.runner.cut_short = [&] { return context.services.cut_short(); };
        settings.after_checked = [&](const SizeRun& checked_run, const RunnerResult& checked, Clock::time_point read_back) {
            record_main_size(report, checked_run, context.file.spec);
            report.times.launched_at_ms = ms_between(started, read_back);
            report.times.checked_at_ms = ms_since(started);
            send_partial(context, report, checked_run, checked, started);
            sent_partial = true;
        };
    }
    SizeRun run = run_size(context, settings);
    record_main_size(report, run, context.file.spec);
    if (run.stopped) std::rethrow_exception(run.stopped);
    if (!run.launches->failure.ok) return std::nullopt;
    if (request.keep_outputs && !sent_partial) {
        report.view = output_view(context, run, *run.launches);
        if (report.view.step > 1) keep_full_view(context, run, *run.launches);
    }
    return run;
}

}  // namespace

void run_pipeline(const RunRequest& request, RunReport& report, const EngineServices& services) {
    const Clock::time_point started = Clock::now();
    report.stage = Stage::source;
    std::string source = read_source(request);
    report.stage = Stage::spec;
    const KernelFile file = read_kernel_file(request, std::move(source));
    const std::unique_ptr<LaunchSource> launched = choose_launch_source(request, file);
    report.task = file.spec.task.name;
    report.kernel = launched->name();
    if (const std::string problem = launched->problem(); !problem.empty()) throw InputError(problem);
    report.spec = file.spec;

    const Target target = choose_target(request, services.devices);
    CompileResult compiled;
    if (launched->compiles()) {
        report.stage = Stage::device;  // a device that cannot run the file's arch=
        check_target_arch(request, file, target, services.devices);
        report.stage = Stage::compile;
        services.report_progress(Phase::compile);
        compiled = compile_kernels(request, file, target, services);
        record_compile(report, compiled, file.spec);
        if (!compiled.ok) return;
    }
    report.times.compiled_at_ms = ms_since(started);

    report.stage = Stage::device;
    const OpenedDevice opened = open_device(request, file, target, services);
    record_device(report, opened, request);
    if (!opened.problem.empty()) return;
    Device& device = opened.device();
    report.stage = launched->load_stage(device);
    services.report_progress(launched->load_phase(device));
    const LoadedKernels kernels = launched->load(device, compiled);
    record_load(report, kernels);
    report.times.loaded_at_ms = ms_since(started);

    const SizeContext context{request, file, *launched, kernels, device, services};
    const std::optional<SizeRun> main = run_main_size(context, report, started);
    if (!main) return;
    // Once the picture has gone, a newer run may overtake this one: what is left is then not run.
    const Clock::time_point further_start = Clock::now();
    if (launched->checks_further_sizes() && !services.cut_short()) {
        const FurtherChecks further = check_further_sizes(context, *main);
        record_further_sizes(report, further);
        if (further.stopped) std::rethrow_exception(further.stopped);
    }
    report.times.further_sizes_ms = ms_since(further_start);
    if (services.cut_short()) {
        report.warnings.push_back(std::string(kCutShortWarning));
        report.times.run_ms = ms_since(started);
        return conclude(report);
    }
    report.ceiling = measure_ceiling(context, opened.gpu, *main, report.flops);
    report.times.run_ms = ms_since(started);
    conclude(report);
}

}  // namespace kplay
