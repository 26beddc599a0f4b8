// Running a helper program (the host compiler, addr2line) and collecting what it prints.
#pragma once

#include <string>
#include <vector>

namespace kplay {

struct ProcessResult {
    int exit_code = -1;  // -1: could not start, or ended by a signal
    std::string output;  // stdout and stderr together
};

// Runs argv[0] (searched in PATH) with the arguments; never throws for a failing program.
ProcessResult run_process(const std::vector<std::string>& argv);

// The first executable called `name` in PATH, or empty.
std::string find_in_path(const std::string& name);

}  // namespace kplay
