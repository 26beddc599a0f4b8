// The test sizes and the second seed, each a size run of its own, checked but not timed.
#include "run/further_sizes.hpp"

#include "base/error.hpp"
#include "kernel_file/task_sizes.hpp"
#include "plan/argument_binding.hpp"
#include "tasks/task_check.hpp"

namespace kplay {

namespace {

// Why the kernel's requires= rules this size out, with the names its launch would see; nothing when it does not.
std::optional<std::string> requirement_broken_at(const SizeContext& context, const std::string& size_text) {
    const KernelSpec& spec = context.file.spec;
    const NamedValues values = size_values(spec.task, parse_size_values(spec.task, size_text));
    NamedValues names = values;
    names["sms"] = context.device.info().sm_count;
    const NamedValues literals = literal_arguments(spec.args, context.request.arg_overrides, values);
    names.insert(literals.begin(), literals.end());
    const NamedValues defines = integer_defines(spec.defines);
    names.insert(defines.begin(), defines.end());
    return requirement_broken(spec, with_block_names(spec, launch_settings_of(context.request), std::move(names)));
}

// One size, checked: its SizeCheck goes to `checks`; its run comes back when it got to its launches.
// Throws what is not the size's own problem (an ApiError, a ReferenceError).
std::optional<SizeRun> check_size(const SizeContext& context, const InputRequest& inputs, FurtherChecks& checks) {
    SizeCheck size;
    size.sizes = inputs.size;
    size.seed = inputs.seed;
    if (const auto broken = requirement_broken_at(context, inputs.size)) {
        size.skipped = true;
        size.passed = true;
        size.summary = "skipped: " + *broken;
        checks.sizes.push_back(size);
        return std::nullopt;
    }
    checks.ran = true;
    checks.last_sizes = inputs.size;
    SizeRun run = run_size(context, {inputs, runner_settings(context.request, false), false, {}});
    if (run.plan) checks.last_launch = run.plan->first.launch;
    if (run.stopped) {
        try {
            std::rethrow_exception(run.stopped);
        } catch (const ReferenceError&) {
            throw;
        } catch (const InputError& error) {
            // Inputs the declaration cannot make at this size (all zeros, a length below 1) are the
            // declaration's fault, not the kernel's: the run stops as an input error.
            if (run.stage == Stage::inputs) throw SizeInputError("at size " + inputs.size + ": " + error.what());
            size.summary = error.what();
            checks.sizes.push_back(size);
            return std::nullopt;
        }
    }
    const LaunchOutcome& failure = run.launches->failure;
    size.passed = failure.ok && run.check->passed;
    size.summary = failure.ok ? run.check->summary : failure.error;
    size.error_code = failure.error_code;
    checks.sizes.push_back(size);
    return run;
}

// The same size with other inputs: an output that stays the same while its reference changes is not
// computed from the inputs (a hard-coded answer, or a kernel that ignores what it reads).
void second_seed(const SizeContext& context, const SizeRun& first, const std::string& size_text, FurtherChecks& checks) {
    InputRequest inputs{context.request.inputs.image_path, size_text, context.request.inputs.seed + 1};
    if (!size_text.empty()) inputs.image_path.clear();
    const std::optional<SizeRun> second = check_size(context, inputs, checks);
    if (!second || !second->launches->failure.ok) return;
    if (second->data->identity == first.data->identity) {  // inputs that do not depend on the seed (an image)
        checks.sizes.pop_back();
        return;
    }
    checks.sizes.back().sizes += " (seed " + std::to_string(inputs.seed) + ")";
    checks.input_independent_at = second->data->sizes;
    checks.input_independent = outputs_that_did_not_change(context.file.spec.task, first.launches->fingerprints, second->launches->fingerprints,
                                                           *first.reference->expected, *second->reference->expected);
}

}  // namespace

FurtherChecks check_further_sizes(const SizeContext& context, const SizeRun& main) {
    FurtherChecks checks;
    const RunRequest& request = context.request;
    if (!request.check_test_sizes) return checks;
    const TaskSpec& task = context.file.spec.task;
    try {
        std::optional<SizeRun> first_test;
        if (request.inputs.size.empty() || request.test_sizes_at_any_size)
            for (const auto& size : context.device.emulated() && !task.sizes.cpu_test.empty() ? task.sizes.cpu_test : task.sizes.test) {
                if (context.services.cut_short()) return checks;  // a newer run overtook this one
                std::optional<SizeRun> run = check_size(context, {"", size_values_text(size), request.inputs.seed}, checks);
                if (run && !first_test) first_test = std::move(run);
            }
        // Without a test size that runs (a kernel whose requires= rules them out) the second seed runs at
        // the main size: the request's, or the one the task chose (an image keeps its file instead).
        const std::string size_text = first_test                                                  ? first_test->data->sizes
                                      : !request.inputs.size.empty() || task.has_image_input() ? request.inputs.size
                                                                                                 : main.data->sizes;
        if (context.services.cut_short()) return checks;
        second_seed(context, first_test ? *first_test : main, size_text, checks);
    } catch (const ApiError&) {
        checks.stopped = std::current_exception();
        checks.gpu_fault = true;
    } catch (const SizeInputError&) {
        checks.stopped = std::current_exception();
        checks.input_refused = true;
    } catch (...) {
        checks.stopped = std::current_exception();
    }
    return checks;
}

}  // namespace kplay
