// One verdict from the buffers' checks, the input-overwrite flags, the further sizes and seeds.
#include "tasks/task_check.hpp"

#include <algorithm>

#include "base/text.hpp"
#include "tasks/buffer_check.hpp"

namespace kplay {

namespace {

BufferCheckInput buffer_input(const RunCheckInput& input, size_t index) {
    BufferCheckInput buffer;
    buffer.spec = &input.task->buffers[index];
    buffer.first = &(*input.first)[index];
    buffer.final = &(*input.final)[index];
    buffer.bytes_on_device = input.on_device != nullptr;
    buffer.expected = &input.expected->outputs[index];
    buffer.reference_key = input.expected->key;
    buffer.bound = input.expected->bounds.size() > index && !input.expected->bounds[index].empty() ? &input.expected->bounds[index] : nullptr;
    buffer.values = input.data->values;
    buffer.tolerance_override = input.tolerance;
    buffer.kind = input.task->presentation.output;
    buffer.image_white = input.task->image_white(*buffer.spec);
    return buffer;
}

// `buffer` with both checked launches' bytes of output `index` read back from the device into `first`
// and `final`: to name one element, or a single value.
BufferCheckInput with_bytes(BufferCheckInput buffer, OutputsOnDevice& device, size_t index, HostBuffer& first, HostBuffer& final) {
    first = *buffer.first;
    first.data = device.first_launch(index);
    final = *buffer.final;
    final.data = device.final_launch(index);
    buffer.first = &first;
    buffer.final = &final;
    buffer.bytes_on_device = false;
    return buffer;
}

// Buffer `index`'s check: on the device when the outputs stay there, with the launches' bytes read back
// only where the verdict names an element (a failure, or a single value).
BufferCheck checked_buffer(const RunCheckInput& input, size_t index) {
    const BufferCheckInput buffer = buffer_input(input, index);
    if (!input.on_device) return check_buffer(buffer);
    if (buffer.spec->check.kind == CheckKind::none) return check_buffer(buffer, ElementTally{});
    const ElementTally tally = input.on_device->tally(index, buffer);
    if (tally.first_bad < 0 && buffer.final->count != 1) return check_buffer(buffer, tally);
    HostBuffer first, final;
    return check_buffer(with_bytes(buffer, *input.on_device, index, first, final), tally);
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
            if (task.buffers[i].is_input() && input.inputs_changed && i < input.inputs_changed->size() && (*input.inputs_changed)[i])
                report.overwritten_inputs.push_back(task.buffers[i].name);
            continue;
        }
        report.buffers.push_back(checked_buffer(input, i));
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

std::vector<std::string> replayed_outputs(const RunCheckInput& checked, const CheckReport& check, const std::vector<HostBuffer>& timed_last) {
    std::vector<std::string> replayed;
    RunCheckInput timed = checked;
    timed.first = &timed_last;  // in the first checked launch's place, beside the second's
    for (size_t i = 0; i < checked.task->buffers.size() && i < timed_last.size(); ++i) {
        const BufferSpec& spec = checked.task->buffers[i];
        if (!spec.is_output() || timed_last[i].count == 0) continue;  // the checked launch's bytes again
        const auto passed_checked = std::find_if(check.buffers.begin(), check.buffers.end(),
                                                 [&](const BufferCheck& buffer) { return buffer.buffer == spec.name && buffer.checked && buffer.passed; });
        if (passed_checked == check.buffers.end()) continue;  // already failed, or not checked (scratch)
        const BufferCheckInput buffer = buffer_input(timed, i);
        const ElementTally tally = checked.on_device ? checked.on_device->timed_tally(i, buffer) : tally_elements(buffer);
        if (!tally.passes()) replayed.push_back(spec.name);
    }
    return replayed;
}

OutputView primary_output_view(const RunCheckInput& input, int view_side) {
    const int primary = primary_index(*input.task);
    if (primary < 0) return {};
    const auto index = static_cast<size_t>(primary);
    const OutputKind kind = input.task->presentation.output;
    const BufferCheckInput buffer = buffer_input(input, index);
    if (!input.on_device) return make_output_view(buffer, kind, view_side);
    if (kind != OutputKind::scalar) return input.on_device->view(index, buffer, kind, view_side);
    HostBuffer first, final;  // a single value: never written shows as such
    return make_output_view(with_bytes(buffer, *input.on_device, index, first, final), kind);
}

void keep_primary_output(const RunCheckInput& input, std::shared_ptr<const ExpectedOutputs> reference, KeptView& kept) {
    const int primary = primary_index(*input.task);
    if (primary < 0) return kept.clear();
    const auto index = static_cast<size_t>(primary);
    kept.keep(buffer_input(input, index), input.task->presentation.output, std::move(reference), input.on_device, index);
}

std::vector<std::string> outputs_that_did_not_change(const TaskSpec& task, const std::vector<uint64_t>& first_seed,
                                                     const std::vector<uint64_t>& second_seed, const ExpectedOutputs& first_expected,
                                                     const ExpectedOutputs& second_expected) {
    std::vector<std::string> unchanged;
    for (size_t i = 0; i < task.buffers.size(); ++i) {
        if (!task.buffers[i].is_output() || task.buffers[i].check.kind == CheckKind::none) continue;
        // Only where the reference itself changed: an argmax of one element is 0 whatever the input.
        const bool reference_changed = first_expected.outputs[i] != second_expected.outputs[i];
        if (reference_changed && first_seed.at(i) == second_seed.at(i)) unchanged.push_back(task.buffers[i].name);
    }
    return unchanged;
}

namespace {

// "1000", or "1000 (seed 2)" for the second seed's run (whose sizes text may say so already).
std::string size_label(const SizeCheck& size) {
    if (size.seed <= 1 || size.sizes.find("(seed") != std::string::npos) return size.sizes;
    return size.sizes + " (seed " + std::to_string(size.seed) + ")";
}

// A size's summary after "FAIL at size N: ", without a verdict of its own in front.
std::string without_verdict(const std::string& summary) { return summary.rfind("FAIL: ", 0) == 0 ? summary.substr(6) : summary; }

}  // namespace

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
    check.passed = !failing && check.overwritten_inputs.empty() && check.input_independent.empty() && check.replayed.empty() && !failing_size;
    if (!check.overwritten_inputs.empty())
        check.summary = "FAIL: the kernel wrote to its input" + std::string(check.overwritten_inputs.size() > 1 ? "s " : " ") + "'" +
                        join(check.overwritten_inputs, "', '") + "', which the task declares read-only (role in)";
    else if (failing)
        check.summary = failing->summary;
    else if (!check.replayed.empty())
        check.summary = "FAIL: the timed launches left '" + join(check.replayed, "', '") +
                        "' wrong, though both checked launches computed it: the kernel keeps an answer across launches "
                        "(a cached result, or state in a global variable) instead of computing it each time, so its time is not its work";
    else if (failing_size)  // before a second seed's finding: what failed at a size says more than what stayed the same
        check.summary = "FAIL at size " + size_label(*failing_size) + ": " + without_verdict(failing_size->summary);
    else if (!check.input_independent.empty())
        check.summary = "FAIL" + (check.input_independent_at.empty() ? std::string() : " at size " + check.input_independent_at) + ": '" +
                        join(check.input_independent, "', '") +
                        "' did not change when the inputs did (seeds 1 and 2): the kernel does not compute it from them";
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
