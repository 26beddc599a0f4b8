// Registration of the built-in tasks: add a new task here.
#include "tasks/task_registry.hpp"

#include "tasks/grayscale_task.hpp"
#include "tasks/matmul_task.hpp"

namespace kplay {

std::vector<const Task*> all_tasks() {
    static const GrayscaleTask grayscale;
    static const MatmulTask matmul;
    return {&grayscale, &matmul};
}

const Task* find_task(const std::string& name) {
    for (const Task* task : all_tasks())
        if (task->name() == name) return task;
    return nullptr;
}

std::string task_names() {
    std::string names;
    for (const Task* task : all_tasks()) names += (names.empty() ? "" : ", ") + task->name();
    return names;
}

}  // namespace kplay
