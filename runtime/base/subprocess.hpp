// Running a helper program (the host compiler, addr2line, nvdisasm, compute-sanitizer, ncu) and
// collecting what it prints.
#pragma once

#include <string>
#include <vector>

namespace kplay {

struct ProcessResult {
    int exit_code = -1;      // -1: could not start, ended by a signal, or stopped at the timeout
    bool timed_out = false;  // stopped because it ran past the timeout
    std::string output;      // stdout and stderr together
};

// Runs argv[0] (searched in PATH) with the arguments; never throws for a failing program. With a
// timeout (seconds, > 0), the program and every process it started are killed when it runs longer.
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s = 0);

// The first executable called `name` in PATH, or empty.
std::string find_in_path(const std::string& name);

}  // namespace kplay
