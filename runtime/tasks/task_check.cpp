// One verdict from the buffers' checks, the input-overwrite flags, the further sizes and seeds.
#include "tasks/task_check.hpp"

#include "base/text.hpp"
#include "tasks/buffer_check.hpp"

namespace kplay {

namespace {

BufferCheckInput buffer_input(const RunCheckInput& input, size_t index) {
    BufferCheckInput buffer;
    buffer.spec = &input.task->buffers[index];
    buffer.first = &(*input.first)[index];
    buffer.final = &input.data->buffers[index];
    buffer.expected = &input.expected->outputs[index];
    buffer.bound = input.expected->bounds.size() > index && !input.expected->bounds[index].empty() ? &input.expected->bounds[index] : nullptr;
    buffer.values = input.data->values;
    buffer.tolerance_override = input.tolerance;
    buffer.kind = input.task->presentation.output;
    return buffer;
}

int primary_index(const TaskSpec& task) {
    const BufferSpec* primary = task.primary_output();
    return primary ? static_cast<int>(primary - task.buffers.data()) : -1;
}

}  // namespace

CheckReport check_run(const RunCheckInput& input) {
    CheckReport report;
    const TaskSpec& task = *input.task;
    const int primary = primary_index(task);
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        if (!task.buffers[i].is_output()) {
            if (task.buffers[i].is_input() && input.inputs_after && i < input.inputs_after->size() && !(*input.inputs_after)[i].empty() &&
                (*input.inputs_after)[i] != input.data->buffers[i].data)
                report.overwritten_inputs.push_back(task.buffers[i].name);
            continue;
        }
        report.buffers.push_back(check_buffer(buffer_input(input, i)));
        if (static_cast<int>(i) == primary) {
            const BufferCheck& check = report.buffers.back();
            report.metrics = check.metrics();
            report.first_bad = check.first_bad.text;
            report.tolerance = check.tolerance;
        }
    }
    conclude_check(report);
    return report;
}

OutputView primary_output_view(const RunCheckInput& input) {
    const int primary = primary_index(*input.task);
    if (primary < 0) return {};
    return make_output_view(buffer_input(input, static_cast<size_t>(primary)), input.task->presentation.output);
}

std::vector<std::string> outputs_that_did_not_change(const TaskSpec& task, const TaskData& first_seed, const TaskData& second_seed,
                                                     const ExpectedOutputs& first_expected, const ExpectedOutputs& second_expected) {
    std::vector<std::string> unchanged;
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        if (!task.buffers[i].is_output() || task.buffers[i].check.kind == CheckKind::none) continue;
        // Only where the reference itself changed: an argmax of one element is 0 whatever the input.
        const bool reference_changed = first_expected.outputs[i] != second_expected.outputs[i];
        if (reference_changed && first_seed.buffers[i].data == second_seed.buffers[i].data) unchanged.push_back(task.buffers[i].name);
    }
    return unchanged;
}

void conclude_check(CheckReport& check) {
    const BufferCheck* failing = nullptr;
    const BufferCheck* leading = nullptr;
    for (const auto& buffer : check.buffers) {
        if (!leading && buffer.checked) leading = &buffer;
        if (!failing && !buffer.passed) failing = &buffer;
    }
    const SizeCheck* failing_size = nullptr;
    for (const auto& size : check.sizes)
        if (!size.passed && !size.skipped && !failing_size) failing_size = &size;
    check.passed = !failing && check.overwritten_inputs.empty() && check.input_independent.empty() && !failing_size;
    if (!check.overwritten_inputs.empty())
        check.summary = "FAIL: the kernel wrote to its input" + std::string(check.overwritten_inputs.size() > 1 ? "s " : " ") + "'" +
                        join(check.overwritten_inputs, "', '") + "', which the task declares read-only (role in)";
    else if (failing)
        check.summary = failing->summary;
    else if (!check.input_independent.empty())
        check.summary = "FAIL: '" + join(check.input_independent, "', '") +
                        "' did not change when the inputs did (a second seed): the kernel does not compute it from them";
    else if (failing_size)
        check.summary = "FAIL at " + failing_size->sizes + (failing_size->seed > 1 ? " (seed " + std::to_string(failing_size->seed) + ")" : "") +
                        ": " + failing_size->summary;
    else if (leading)
        check.summary = leading->summary;
    else
        check.summary = "PASS: no output is checked";
    if (check.passed && !check.sizes.empty()) {
        int checked = 0;
        for (const auto& size : check.sizes) checked += size.skipped ? 0 : 1;
        check.summary += "; " + std::to_string(checked) + (checked == 1 ? " more size passes" : " more sizes pass");
    }
}

}  // namespace kplay
