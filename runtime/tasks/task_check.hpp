// The check of one run: every output buffer against the reference (buffer_check), the inputs the
// kernel must not have written, and, once the further sizes and seeds have run, the overall verdict.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "values/check_report.hpp"
#include "values/output_view.hpp"
#include "kernel_file/task_spec.hpp"
#include "tasks/expected_outputs.hpp"
#include "tasks/kept_view.hpp"
#include "tasks/outputs_on_device.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

struct RunCheckInput {
    const TaskSpec* task = nullptr;
    const TaskData* data = nullptr;                  // inputs as made, and the sizes
    const std::vector<HostBuffer>* first = nullptr;  // by buffer index: outputs as the first checked launch left them
    const std::vector<HostBuffer>* final = nullptr;  // and as the second left them
    const ExpectedOutputs* expected = nullptr;
    const std::vector<bool>* inputs_changed = nullptr;  // by buffer index: the kernel wrote this `in` buffer
    std::optional<double> tolerance;  // replaces each output's leading tolerance
    // Where the outputs stay on the device (a GPU): the tally and the view are computed there, and `first`
    // and `final` hold no bytes (read back only to name a failure, a single value, or a view at full
    // resolution of bytes). Null: the host pass over `first` and `final`.
    std::shared_ptr<OutputsOnDevice> on_device;
};

// Checks every output and flags `in` buffers whose bytes changed. Throws InputError when a tolerance
// expression does not evaluate.
CheckReport check_run(const RunCheckInput& input);

// The outputs that `check` passed but that the last timed launch (`timed_last`, by buffer index) left
// wrong. The runner keeps only an output whose bytes differ from the second checked launch's (by
// fingerprint; count 0 elsewhere); those are checked against the reference as the first checked launch
// was, so a kernel whose float atomics add in another order is not blamed. Where the outputs stay on the
// device (checked.on_device), the tally is made there and nothing is read back.
std::vector<std::string> replayed_outputs(const RunCheckInput& checked, const CheckReport& check, const std::vector<HostBuffer>& timed_last);

// The window's view of the task's primary output, by its presentation; an image longer than `view_side`
// (0: no limit) downsampled to it.
OutputView primary_output_view(const RunCheckInput& input, int view_side = 0);

// Keeps what the primary output's full-resolution view is made from: the device's copies where the
// outputs stay there, else both launches' bytes; `reference` is what input.expected points to, shared.
void keep_primary_output(const RunCheckInput& input, std::shared_ptr<const ExpectedOutputs> reference, KeptView& kept);

// Whether two runs' outputs are the same, buffer by buffer (by index, their fingerprints: RunnerResult::
// fingerprints): the second seed asks whether the kernel's outputs changed when the reference's did.
std::vector<std::string> outputs_that_did_not_change(const TaskSpec& task, const std::vector<uint64_t>& first_seed,
                                                     const std::vector<uint64_t>& second_seed, const ExpectedOutputs& first_expected,
                                                     const ExpectedOutputs& second_expected);

// The overall verdict once check.sizes and check.input_independent are filled: passed and summary.
void conclude_check(CheckReport& check);

}  // namespace kplay
