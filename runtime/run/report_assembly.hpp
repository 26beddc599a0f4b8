// The report, assembled from the stages' values. Each record_ function writes what one stage returned,
// as soon as it returns, so a run that stops still reports as far as it got; the stages themselves
// never see the report.
#pragma once

#include "values/compile_result.hpp"
#include "values/output_view.hpp"
#include "values/run_report.hpp"
#include "device/runner.hpp"
#include "run/further_sizes.hpp"
#include "run/launch_source.hpp"
#include "run/open_device.hpp"
#include "run/size_run.hpp"

namespace kplay {

// The diagnostics and the log, never the binary or its PTX; a failed compile's error.
void record_compile(RunReport& report, const CompileResult& compiled, const KernelSpec& spec);

// The device, or why there is none (the run's error).
void record_device(RunReport& report, const OpenedDevice& opened, const RunRequest& request);

// The first kernel's attributes and what loading it took.
void record_load(RunReport& report, const LoadedKernels& kernels);

// The main size as far as it got: the stage, its inputs, launch, reference, launches and check, and a
// failed launch as the run's error. Called again as the size gets further (a progressive run's checked
// result, then its end), it writes what it wrote before again, and what is new.
void record_main_size(RunReport& report, const SizeRun& run, const KernelSpec& spec);

// The first answer of a progressive run: the report so far with `view` (the arrays go with it only),
// timed by the checked launches, done, and judged.
RunReport partial_answer(const RunReport& report, OutputView view, const RunnerResult& checked, const KernelSpec& spec);

// The test sizes' and the second seed's checks; a GPU fault among them is reported as the run's, with
// that size and its launch.
void record_further_sizes(RunReport& report, const FurtherChecks& checks);

// A run that went through: its verdict, and its check concluded over every size.
void conclude(RunReport& report);

}  // namespace kplay
