// One size of a run, the same steps for the main size and the further ones: its inputs -> the plan of
// its launches -> the expected outputs -> the launches (two checked, then any timed) -> the check.
//
// What only the main size does is its caller's: it passes the runner's timing, asks for the occupancy,
// hears of the checked launches (a progressive run's first answer) and records the returned SizeRun.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>

#include "values/check_report.hpp"
#include "values/kernel_resources.hpp"
#include "values/output_view.hpp"
#include "values/run_request.hpp"
#include "values/stage.hpp"
#include "device/runner.hpp"
#include "reference/references.hpp"
#include "run/engine_services.hpp"
#include "run/launch_source.hpp"
#include "run/read_file.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// What every size of a run shares.
struct SizeContext {
    const RunRequest& request;
    const KernelFile& file;
    const LaunchSource& source;
    const LoadedKernels& kernels;
    Device& device;
    const EngineServices& services;
};

// A size as far as it got.
struct SizeRun {
    Stage stage = Stage::inputs;  // the step it got to: where it stopped, when `stopped` is set
    std::shared_ptr<const TaskData> data;  // inputs as made (the input cache's, shared); the outputs are `launches`'
    double inputs_ms = 0;
    std::optional<SizePlan> plan;
    std::optional<LaunchPlan> unbound;  // the first launch's plan when its arguments could not be bound
    Occupancy occupancy;  // the first launch's, when asked for
    std::optional<ReferenceResult> reference;
    std::optional<RunnerResult> launches;
    std::optional<CheckReport> check;  // once the checked launches went through
    std::exception_ptr stopped;        // what ended it early (an InputError, ReferenceError, ApiError, ...)
};

using AfterChecked = std::function<void(const SizeRun& run, const RunnerResult& checked, std::chrono::steady_clock::time_point read_back)>;

struct SizeSettings {
    InputRequest inputs;
    RunnerSettings runner;   // timed (warm-ups and repeats after the checked launches) or not
    bool occupancy = false;  // prepare the first launch and ask its occupancy, before the reference
    // The main size: the elements the run is asked who wrote (RunRequest::who_wrote), refused before the
    // launch where no buffer of that name holds that index.
    std::vector<ElementRef> asked_about;
    // Once the checked launches (read back at `read_back`) are checked, before any timed repeat.
    AfterChecked after_checked;
};

// The runner's settings from the request's; timed or not.
RunnerSettings runner_settings(const RunRequest& request, bool timed);

// Never throws: what stopped it is SizeRun::stopped.
SizeRun run_size(const SizeContext& context, const SizeSettings& settings);

// The window's view of the primary output as `launches` left it, with the input image it was made from
// unless the window has that already (RunRequest::known_input).
OutputView output_view(const SizeContext& context, const SizeRun& run, const RunnerResult& launches);
// Keeps what the primary output's full-resolution view is made from (EngineServices::kept_view), for a
// view that came downsampled.
void keep_full_view(const SizeContext& context, const SizeRun& run, const RunnerResult& launches);

}  // namespace kplay
