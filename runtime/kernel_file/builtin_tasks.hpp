// The tasks kplay ships with, as TaskSpec values: grayscale (the seed lecture) and matmul (lecture 5).
// A kernel file names one with `// kplay: task=NAME` or by sitting in a folder of that name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/task_spec.hpp"

namespace kplay {

const TaskSpec* find_builtin_task(std::string_view name);  // nullptr when there is none
std::vector<const TaskSpec*> builtin_tasks();
std::string builtin_task_names();  // "grayscale, matmul"

}  // namespace kplay
