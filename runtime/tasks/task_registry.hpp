// The tasks kplay knows, looked up by name.
#pragma once

#include <string>
#include <vector>

#include "tasks/task.hpp"

namespace kplay {

const Task* find_task(const std::string& name);  // nullptr when unknown
std::vector<const Task*> all_tasks();
std::string task_names();  // "grayscale, matmul"

}  // namespace kplay
