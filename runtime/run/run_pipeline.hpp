// The path of one run. Each stage takes the values the stages before it returned and returns its own:
//
//   read_file       the file's text -> KernelFile (spec, reference text); then what launches (launch_source)
//   compile_kernels NVRTC -> CompileResult (a library skips it)
//   open_device     -> OpenedDevice (a GPU, or the emulated CPU device); then the kernels loaded
//   size_run        for the main size: inputs -> plan -> expected outputs -> launches -> check -> SizeRun
//   further_sizes   the test sizes and a second seed, each a size run -> FurtherChecks
//   measure_ceiling -> Ceiling
//
// run_pipeline hands the values on and writes each into the report as it comes (report_assembly), so
// a run that stops reports as far as it got. Engine::run hosts it and turns what it throws into the
// report's error.
#pragma once

#include "values/run_report.hpp"
#include "values/run_request.hpp"
#include "run/engine_services.hpp"

namespace kplay {

// Fills `report` as far as the run gets. Throws ApiError (a CUDA or NVRTC call failed), InputError
// (something the user gave cannot be used; ReferenceError for the reference's faults).
void run_pipeline(const RunRequest& request, RunReport& report, const EngineServices& services);

// The warning of a progressive run that a newer one overtook after its checked result (CutCheck): its
// figures are the checked launches' and its verdict the main size's.
inline constexpr const char* kCutShortWarning =
    "Cut short: a newer run came after this one's checked result, so its timed repeats, test sizes, second seed "
    "and memory ceiling were left out (its time is the checked launches').";

}  // namespace kplay
