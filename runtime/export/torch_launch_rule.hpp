// The launches of an exported snippet as Python: the body of its launch_settings(), which recomputes
// block, grid, dynamic shared memory and the value arguments from the sizes the caller passes, the
// way kplay's plan (plan/plan.hpp) does from the spec and the window's settings.
#pragma once

#include <string>
#include <vector>

#include "export/torch_export.hpp"

namespace kplay {

struct ExportedArgument {
    int buffer = -1;     // the task buffer passed as a pointer; -1 for a value
    std::string python;  // the value, a Python expression over launch_settings()'s names
};

struct ExportedLaunch {
    std::string kernel;                    // a name expression: "matmul_k<16>"
    const KernelDecl* declaration = nullptr;
    std::vector<ExportedArgument> arguments;
};

struct LaunchRule {
    std::vector<std::string> lines;        // launch_settings()'s body, unindented
    std::vector<ExportedLaunch> launches;
    std::vector<std::string> summary;      // one line per launch, for the snippet's header
};

// Throws InputError for what a snippet cannot launch (a TMA descriptor, a cluster).
LaunchRule python_launch_rule(const TorchExport& input);

// The length of a buffer, and the values derived from the sizes (n = w*h), as Python lines.
std::vector<std::string> python_derived_sizes(const TaskSpec& task);

}  // namespace kplay
