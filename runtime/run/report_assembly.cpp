// Writing the stages' values into the report.
#include "run/report_assembly.hpp"

#include "base/expression.hpp"
#include "values/verdict.hpp"
#include "tasks/task_check.hpp"

namespace kplay {

namespace {

// The launches' figures: timings, what the kernel printed, and the work done (the task's cost at the
// report's values).
void record_launch_results(RunReport& report, const RunnerResult& launches, const KernelSpec& spec) {
    report.kernel_ms = launches.timing;
    report.warmup = launches.warmup;
    report.l2_flushed = launches.l2_flushed;
    report.conditions = launches.conditions;
    report.input_copies = launches.copies;
    report.h2d_ms = launches.h2d_ms;
    report.inputs_resident = launches.inputs_resident;
    report.d2h_ms = launches.d2h_ms;
    report.printf_lines = launches.printf_lines;
    report.printf_dropped = launches.printf_dropped;
    report.warnings = launches.warnings;
    report.races = launches.races;
    report.writers = launches.writers;
    report.writer_map = launches.writer_map;
    report.writes = launches.writes;
    report.line_access = launches.line_access;
    const CostSpec& cost = spec.task.cost;
    report.bytes = cost.bytes.empty() ? 0 : evaluate_real_expr(cost.bytes, report.values);
    report.flops = cost.flops.empty() ? 0 : evaluate_real_expr(cost.flops, report.values);
}

void record_plan(RunReport& report, const SizePlan& plan, const Occupancy& occupancy, const KernelSpec& spec) {
    report.values = plan.first.names;
    report.launch = plan.first.launch;
    report.coverage = plan.first.coverage;
    report.arguments = plan.first.arguments;
    report.following.clear();
    for (size_t i = 0; i < plan.following.size(); ++i) report.following.push_back({spec.following[i].kernel, plan.following[i].launch});
    report.occupancy = occupancy;
}

// The summary's parenthesis: what kind of race, in a few words.
std::string race_summary_note(const Race& race) {
    switch (race_kind(race)) {
        case RaceKind::warp_local: return " (lanes of one warp, no __syncwarp())";
        case RaceKind::between_blocks: return " (different blocks, no fence-and-flag handoff)";
        case RaceKind::plain_atomic: return " (a plain access against atomic ones)";
        default: return " (no __syncthreads() between)";
    }
}

// A race is a wrong kernel whatever the numbers said this time: the check fails with the race first,
// then what the output did (matched by chance, or was wrong).
void apply_races(RunReport& report) {
    if (report.races.empty() || report.check.summary.rfind("RACE", 0) == 0) return;
    const Race& race = report.races.front();
    // The races themselves are listed beside the check (RunReport::races); the summary names the first.
    std::string summary = std::string("RACE on ") + (race.space == RaceSpace::shared ? "shared array '" : "buffer '") + race.array + "' " +
                          (race.first.line == race.second.line ? "at line " + std::to_string(race.first.line)
                                                               : "between line " + std::to_string(race.first.line) + " and line " + std::to_string(race.second.line)) +
                          race_summary_note(race);
    if (report.races.size() > 1) summary += ", and " + std::to_string(report.races.size() - 1) + " more";
    const std::string& before = report.check.summary;
    if (report.check.passed) summary += ". The output happened to match this time (" + before + "); at another thread order, or on a GPU, it may not";
    else if (!before.empty()) summary += ". " + before + ": the race explains it";
    report.check.passed = false;
    report.check.summary = summary;
}

}  // namespace

void record_compile(RunReport& report, const CompileResult& compiled, const KernelSpec& spec) {
    report.compile = compiled;
    report.compile.binary.clear();
    report.compile.ptx.clear();
    if (!compiled.ok) {
        const int errors = compiled.count(Severity::error);
        report.error = errors ? std::to_string(errors) + (errors == 1 ? " compile error" : " compile errors")
                              : "Compilation failed: " + compiled.failure;
        return;
    }
    report.lowered_name = compiled.lowered_names.at(spec.kernel);
}

void record_device(RunReport& report, const OpenedDevice& opened, const RunRequest& request) {
    if (!opened.problem.empty()) {
        report.error = opened.problem;
        return;
    }
    if (opened.emulated) {
        report.emulated = true;
        report.thread_order = request.thread_order;
        report.thorough = request.emulation_thorough;
        report.tracked = request.emulation_track && !request.emulation_thorough && !request.emulation_debug;
    }
    report.device = opened.device().info();
}

void record_load(RunReport& report, const LoadedKernels& kernels) {
    const LoadedKernel& first = kernels.first();
    report.function = first.attributes;
    report.module_load_ms = first.load_ms;
    report.host_compile_ms = first.host_compile_ms;
    report.host_compile_cached = first.host_compile_cached;
}

void record_main_size(RunReport& report, const SizeRun& run, const KernelSpec& spec) {
    report.stage = run.stage;
    if (run.data) {
        report.inputs_ms = run.inputs_ms;
        report.input_description = run.data->description;
        report.input_identity = run.data->identity;
        report.sizes = run.data->sizes;
        report.values = run.data->values;  // the sizes, until a plan adds the launch's own names
    }
    if (run.plan) record_plan(report, *run.plan, run.occupancy, spec);
    if (run.unbound) {  // the launch it would have been, for the failure's report
        report.values = run.unbound->names;
        report.launch = run.unbound->launch;
        report.coverage = run.unbound->coverage;
    }
    if (run.reference) {
        report.check = run.check.value_or(CheckReport{});
        report.check.reference = run.reference->description;
        report.check.reference_ms = run.reference->ms;
        report.check.reference_cached = run.reference->cached;
    }
    if (!run.launches) return;
    record_launch_results(report, *run.launches, spec);
    report.times.timed_ms = run.launches->timed_ms;
    const LaunchOutcome& failure = run.launches->failure;
    if (failure.ok) return;
    report.error = failure.error;
    report.error_code = failure.error_code;
    report.error_line = failure.line;
    report.fault = failure.fault;
}

RunReport partial_answer(const RunReport& report, OutputView view, const RunnerResult& checked, const KernelSpec& spec) {
    RunReport partial = report;
    partial.view = std::move(view);
    record_launch_results(partial, checked, spec);
    partial.partial = true;
    partial.stage = Stage::done;
    apply_verdict(partial);
    apply_races(partial);
    return partial;
}

void record_further_sizes(RunReport& report, const FurtherChecks& checks) {
    if (checks.ran) report.stage = Stage::run;
    report.check.sizes = checks.sizes;
    report.check.input_independent = checks.input_independent;
    report.check.input_independent_at = checks.input_independent_at;
    if (checks.input_refused) report.stage = Stage::inputs;
    if (!checks.gpu_fault) return;
    report.launch = checks.last_launch;
    report.sizes = checks.last_sizes;
}

void conclude(RunReport& report) {
    apply_verdict(report);
    conclude_check(report.check);
    apply_races(report);
    report.stage = Stage::done;
}

}  // namespace kplay
