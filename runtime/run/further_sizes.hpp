// The further checks after the main size: the task's test sizes (edge cases) and a second seed of
// inputs, each checked in full, none timed. With --size only that size runs, and the second seed at it.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "values/check_report.hpp"
#include "values/launch_config.hpp"
#include "run/size_run.hpp"

namespace kplay {

struct FurtherChecks {
    std::vector<SizeCheck> sizes;
    std::vector<std::string> input_independent;  // outputs that stayed the same when the second seed's inputs did not
    std::string input_independent_at;            // the size the two seeds ran at
    bool ran = false;  // a size got past the kernel's requires= to its steps
    // The size last run and its launch: where a GPU fault among them is reported, so the command that
    // reproduces it runs that size.
    std::string last_sizes;
    LaunchConfig last_launch;
    std::exception_ptr stopped;  // what ended them (a GPU fault, the reference's fault): the caller rethrows it
    bool gpu_fault = false;      // `stopped` is an ApiError
    bool input_refused = false;  // `stopped` is a SizeInputError: the declaration cannot make a size's inputs
};

// A test size whose inputs the declaration cannot make; the message names the size.
class SizeInputError : public InputError {
public:
    using InputError::InputError;
};

// Never throws: what stopped them is FurtherChecks::stopped.
// A newer run that overtakes this one ends them between sizes (EngineServices::cut_short).
FurtherChecks check_further_sizes(const SizeContext& context, const SizeRun& main);

}  // namespace kplay
