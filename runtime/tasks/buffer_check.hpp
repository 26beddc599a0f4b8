// One output buffer against its reference, element by element, by the buffer's check rule; and, for
// the window, the view of it that the task's output kind asks for.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/expression.hpp"
#include "values/check_report.hpp"
#include "values/output_view.hpp"
#include "kernel_file/task_spec.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

struct BufferCheckInput {
    const BufferSpec* spec = nullptr;  // name, type, check rule
    const HostBuffer* first = nullptr;  // as the first checked launch left it (filled with poison[0] before it)
    const HostBuffer* final = nullptr;  // as the second left it (filled with poison[1] before it)
    const std::vector<unsigned char>* expected = nullptr;  // the reference's output, same type and count
    const std::vector<double>* bound = nullptr;  // per-element bound for CheckKind::bound; null otherwise
    NamedValues values;                          // the run's sizes: tolerance expressions are evaluated over them
    std::optional<double> tolerance_override;    // replaces the rule's leading number (abs, rel, ulp or bound)
    OutputKind kind = OutputKind::series;        // how the first bad element is named ("pixel (x=5, y=0)" for images)
};

// Throws InputError when a tolerance expression does not evaluate.
BufferCheck check_buffer(const BufferCheckInput& input);

// The window's view of this buffer for `kind`: image (the output pixels and out - ref), matrix (the
// |got - ref| / allowed map, max-pooled to at most 1024 a side), series (got, reference and the
// error ratio, as min/max envelopes past Series::kMaxSeriesEntries elements) or scalar (its first
// element and the reference's, as text).
OutputView make_output_view(const BufferCheckInput& input, OutputKind kind);

}  // namespace kplay
