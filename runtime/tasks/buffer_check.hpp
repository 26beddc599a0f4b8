// One output buffer against its reference, element by element, by the buffer's check rule; and, for
// the window, the view of it that the task's output kind asks for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expression.hpp"
#include "values/check_report.hpp"
#include "values/output_view.hpp"
#include "kernel_file/task_spec.hpp"
#include "tasks/element_tally.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

struct BufferCheckInput {
    const BufferSpec* spec = nullptr;  // name, type, check rule
    const HostBuffer* first = nullptr;  // as the first checked launch left it (filled with poison[0] before it)
    const HostBuffer* final = nullptr;  // as the second left it (filled with poison[1] before it)
    // first's and final's bytes stay on the device that checks them (outputs_on_device.hpp): only their
    // description is read here (a tally computed there, a view's frame).
    bool bytes_on_device = false;
    const std::vector<unsigned char>* expected = nullptr;  // the reference's output, same type and count
    const std::vector<double>* bound = nullptr;  // per-element bound for CheckKind::bound; null otherwise
    std::string reference_key;                   // the ExpectedOutputs::key `expected` and `bound` are of
    NamedValues values;                          // the run's sizes: tolerance expressions are evaluated over them
    std::optional<double> tolerance_override;    // replaces the rule's leading number (abs, rel, ulp or bound)
    OutputKind kind = OutputKind::series;        // how the first bad element is named ("pixel (x=5, y=0)" for images)
    double image_white = 255;                    // an image view draws this value as white (TaskSpec::image_white)
};

// Throws InputError when a tolerance expression does not evaluate.
BufferCheck check_buffer(const BufferCheckInput& input);

// Throws InputError when the buffers' sizes disagree with the spec (the reference's, the first launch's, a
// bound missing): what every pass checks before it reads an element.
void validate_check_input(const BufferCheckInput& input);

// The rule with its numbers evaluated over the run's sizes. Throws InputError as check_buffer does.
struct CheckRule {
    CheckKind kind = CheckKind::exact;
    double abs = 0, rel = 0, ulp = 0, bound = 1;
    double leading = 0;  // the number an override replaces and colour scales use
    std::string text;    // "|got - ref| <= 1e-07 + 1e-05 |ref|"
};
CheckRule check_rule(const BufferCheckInput& input);

// What one pass over every element finds (tasks/element_tally.hpp), as the host computes it: the
// reference implementation a device's own pass (outputs_on_device.hpp) is held to.
ElementTally tally_elements(const BufferCheckInput& input);

// The verdict from a tally computed elsewhere. Reads the launches' bytes only to name the first bad
// element and a single value's summary: give them when tally.first_bad >= 0 or the buffer has one element.
BufferCheck check_buffer(const BufferCheckInput& input, const ElementTally& tally);

// The window's view of this buffer for `kind`: image (the output pixels and out - ref), matrix (the
// |got - ref| / allowed map, max-pooled to at most 1024 a side), series (got, reference and the
// error ratio, as min/max envelopes past Series::kMaxSeriesEntries elements) or scalar (its first
// element and the reference's, as text). An image longer than `view_side` pixels (0: no limit) is
// viewed downsampled to it (OutputView::step).
OutputView make_output_view(const BufferCheckInput& input, OutputKind kind, int view_side = 0);

// The view's frame without its values: kind, buffer name, sizes, and each array sized (zeros), so a
// device that computes the values fills the same frame the host pass does. For a matrix, `row_step` and
// `col_step` are the elements max-pooled into one cell; an image's step is the view's own.
struct ViewFrame {
    OutputView view;
    int64_t row_step = 1, col_step = 1;
};
ViewFrame output_view_frame(const BufferCheckInput& input, OutputKind kind, int view_side = 0);

}  // namespace kplay
