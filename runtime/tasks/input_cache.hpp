// The inputs of recent runs, kept: the window re-runs on every save, and making the built-in image or
// random matrices again would dominate the edit->result time. Every run also makes its test sizes'
// small inputs, so the cache holds several sets, bounded in bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/recent_entries.hpp"
#include "values/run_request.hpp"
#include "kernel_file/task_spec.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

class InputCache {
public:
    // The task's inputs for this request: its sizes (the request's, else the bench or default size for
    // the device; an image input's file gives w and h), made (or found) with the request's seed.
    // Throws InputError for a bad size, a missing or corrupt image, or a declaration that cannot be met.
    // Shared, never copied: a photo's input is 100 MB, and a run only reads it.
    std::shared_ptr<const TaskData> get(const TaskSpec& task, const InputRequest& request, bool cpu, bool bench);

private:
    RecentEntries<std::shared_ptr<const TaskData>> entries_{8, size_t{1} << 30};  // 8 sets, 1 GiB
};

}  // namespace kplay
