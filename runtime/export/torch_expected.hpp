// What an exported snippet compares each output with: a PyTorch expression and the tolerance of the
// output's check, evaluated at the task's default size (where the snippet's own call runs).
#pragma once

#include <string>
#include <vector>

#include "export/torch_export.hpp"

namespace kplay {

struct ExpectedOutput {
    int buffer = -1;          // the output, an index into the task's buffers
    std::string expression;   // Python over the inputs and sizes; empty: none known
    std::string atol = "0";   // Python: a number, or a tensor expression (a GEMM's per-element bound)
    double rtol = 0;
    std::string check;        // the check as the file writes it, for the snippet's message
    bool compared = true;     // false for check=none
};

// One per output of the task, in buffer order. The built-in tasks' expressions follow from their
// reference (a seed grayscale in double, an fp64 GEMM); a declared task's from its kplay-torch lines.
std::vector<ExpectedOutput> expected_outputs(const TorchExport& input);

}  // namespace kplay
