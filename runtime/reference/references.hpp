// The reference stage: where a run's expected outputs come from, computed once per input set.
//
//   builtin: kplay's own code for the built-in tasks (tasks/builtin_references)
//   host:    the kernel file's own C++ function, built by the host compiler and run in a sandboxed
//            process of its own (host_reference_runner)
//   kernel:  a trusted kernel from another file, run on the emulated CPU device (kernel_reference_runner)
// A reference that fails says so as the reference's fault (ReferenceError), before any kernel runs.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "base/error.hpp"
#include "values/error_code.hpp"
#include "values/kernel_resources.hpp"
#include "values/run_request.hpp"
#include "plan/plan.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "tasks/expected_outputs.hpp"
#include "reference/reference_cache.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// The reference could not produce the expected outputs: it crashed, hung, called what it may not, or
// does not exist. The message is for the user; the code names the fault (timeout, ...).
class ReferenceError : public InputError {
public:
    ReferenceError(const std::string& message, ErrorCode code = ErrorCode::reference_failed, int line = 0)
        : InputError(message), code_(code), line_(line) {}
    ErrorCode code() const { return code_; }
    int line() const { return line_; }

private:
    ErrorCode code_;
    int line_;
};

// What a reference needs beyond the inputs: the file, the kernel's plan (its arguments are the
// reference's), the kernel's parameter sizes, and where kplay keeps its builds.
struct ReferenceContext {
    const KernelSpec* spec = nullptr;
    const std::string* source = nullptr;
    std::filesystem::path path;
    const LaunchPlan* plan = nullptr;
    const FunctionAttributes* function = nullptr;
    const RunRequest* request = nullptr;
    std::filesystem::path emu_include_dir, kernels_include_dir, cache_dir;
};

struct ReferenceResult {
    std::shared_ptr<const ExpectedOutputs> expected;
    double ms = 0;
    bool cached = false;
    std::string description;  // "host function kplay_reference (sandboxed)"
};

class References {
public:
    // Cached by (reference, source, defines, input identity). Throws ReferenceError.
    ReferenceResult expected(const ReferenceContext& context, const TaskData& data, const ReferenceProgress& progress);

private:
    // Enough entries for a save's main size, test sizes and second seed, and the next save's.
    ReferenceCache<ExpectedOutputs> cache_{16, size_t{2} << 30, [](const ExpectedOutputs& expected) {
                                              size_t bytes = 0;
                                              for (const auto& output : expected.outputs) bytes += output.size();
                                              for (const auto& bound : expected.bounds) bytes += bound.size() * sizeof(double);
                                              return bytes;
                                          }};
};

// The two kinds that run user code, each in its own file.
ExpectedOutputs run_host_reference(const ReferenceContext& context, const TaskData& data, const ReferenceProgress& progress);
ExpectedOutputs run_kernel_reference(const ReferenceContext& context, const TaskData& data);
// What a kernel reference runs: its file's text and the headers it reaches through its include folders
// (an edit of either is a new reference); empty when the file cannot be read (the run then says why).
std::string kernel_reference_code(const ReferenceContext& context);

}  // namespace kplay
