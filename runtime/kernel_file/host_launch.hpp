// A kernel's launch as the file's own host code writes it, read into kplay's block and grid.
//
// A load_inline wrapper or a PMPP main() launches the kernel itself: `int threads = 256;
// k<<<cdiv(w*h, threads), threads>>>(x, out, w*h)`, or with dim3 variables. Where the launch is plain
// (numbers, cdiv/min/max, + - * / %, the wrapper's variables set once, dim3 members, and the values it
// passes the kernel), kplay reads it and launches the same way over the task's sizes: each value the
// wrapper passes the kernel stands for the task's value bound to that parameter (`w*h` passed as `n` is
// the task's n). Where it is not, the run says which key to add to the `// kplay:` line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/expression.hpp"

namespace kplay {

struct KernelSpec;

struct HostLaunch {
    int line = 0;                    // of the kernel's name at the launch
    std::string function;            // the host function it is in
    std::vector<std::string> block;  // kplay expressions over the task's sizes, when read
    std::vector<std::string> grid;
    std::string smem;                // empty: none (or 0)
    std::string problem;             // why it could not be read; empty when it was
    std::vector<std::string> suggested_block, suggested_grid;  // what could be read, the rest as written
};

// The launches of `kernel` in the file's host functions. `args`: the value each kernel parameter is bound
// to (the spec's args), `buffers`: which of those are buffers, `known`: the names a launch expression
// may use (the task's sizes, literal arguments), with values to check the expressions on.
std::vector<HostLaunch> read_host_launches(std::string_view source, const std::string& kernel, const std::vector<std::string>& args,
                                           const std::vector<std::string>& buffers, const NamedValues& known);

// Sets the spec's block, grid and smem from the host code's launch of its kernel when the annotation sets
// neither block nor grid, and says so in spec.inferred (with the line), or says there what to add when the
// launch is not plain. `launch_given`: the annotation says launch=1d or 2d.
void take_launch_from_host_code(std::string_view source, bool launch_given, KernelSpec& spec);

}  // namespace kplay
