// What a run launches: the kernel file's kernels, or a library (cuBLAS) timed in their place
// (RunRequest::baseline). Chosen once, after the spec is read; the stages ask it what to do, never
// which one it is.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "values/compile_result.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "values/stage.hpp"
#include "device/device.hpp"
#include "plan/plan.hpp"
#include "run/read_file.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// What a source put on the device: the file's kernels by their name expressions, the annotated one
// first; or the library, alone.
struct LoadedKernels {
    std::vector<std::string> names;
    std::vector<std::unique_ptr<LoadedKernel>> kernels;

    LoadedKernel& first() const { return *kernels.front(); }
    LoadedKernel& named(const std::string& name) const;
};

// One size's launches, planned over its data: the first, then the file's kplay-launch lines'.
struct SizePlan {
    LaunchPlan first;
    std::vector<LaunchPlan> following;
};

class LaunchSource {
public:
    virtual ~LaunchSource() = default;
    // What the report calls it: the annotated kernel, or "cuBLAS SGEMM (fp32)".
    virtual std::string name() const = 0;
    // Why it cannot run the file's task; empty when it can.
    virtual std::string problem() const = 0;
    // Whether NVRTC compiles the file before the device opens (a library has nothing to compile).
    virtual bool compiles() const = 0;
    // The stage a failed load is reported at, and the phase the watchdog times the load by.
    virtual Stage load_stage(const Device& device) const = 0;
    virtual Phase load_phase(const Device& device) const = 0;
    // `compiled` is NVRTC's result where compiles(). Throws InputError or ApiError.
    virtual LoadedKernels load(Device& device, const CompileResult& compiled) const = 0;
    // Throws InputError (a launch the device or the kernel cannot take; a kplay-launch line's names its line).
    virtual SizePlan plan(const TaskData& data, const LoadedKernels& kernels, const Device& device) const = 0;
    // Whether the test sizes and a second seed check it after the main size (a library is trusted).
    virtual bool checks_further_sizes() const = 0;
    // What replaces each output's leading tolerance in the check, if anything.
    virtual std::optional<double> tolerance() const = 0;
    // A library is its own ceiling (from the main size's flops and median time); the file's kernels
    // have the task's, measured on the device (nullopt).
    virtual std::optional<Ceiling> own_ceiling(double flops, double median_ms) const = 0;
};

// The request and the file must outlive it.
std::unique_ptr<LaunchSource> choose_launch_source(const RunRequest& request, const KernelFile& file);

// What the user changed of the launch for this run.
LaunchSettings launch_settings_of(const RunRequest& request);

// The task's buffers as a plan sees them.
std::vector<PlanBuffer> plan_buffers(const TaskData& data);

}  // namespace kplay
