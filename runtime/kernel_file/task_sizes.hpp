// A task's sizes as text: "1000x999x1001" (one value per size name, in order), "R=3,C=1000" (by name,
// all of them), or one value for every size, and back. Pure, so the window and the engine read a
// --size the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/expression.hpp"
#include "kernel_file/task_spec.hpp"

namespace kplay {

// Values in the order of task.sizes.names. Throws InputError with the task's size names and an example
// when the text does not fit, or a value is not positive.
std::vector<int64_t> parse_size_values(const TaskSpec& task, std::string_view text);

// "1000x999x1001": values in the order of the size names.
std::string size_values_text(const std::vector<int64_t>& values);

// "M=1000, N=999" (with the separator given).
std::string named_sizes_text(const std::vector<std::string>& names, const std::vector<int64_t>& values, std::string_view separator);

// The named sizes plus the derived values (in order), e.g. w, h and n = w*h. Throws InputError when the
// count does not match or a derived expression does not evaluate.
NamedValues size_values(const TaskSpec& task, const std::vector<int64_t>& values);

// "give 3 values like 1024x1024x1024 or M=1024,N=1024,K=1024", for messages.
std::string size_example(const TaskSpec& task);

}  // namespace kplay
