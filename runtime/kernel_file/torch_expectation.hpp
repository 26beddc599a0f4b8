// What an output should equal, as PyTorch computes it: the file's `// kplay-torch:` lines.
//
//   // kplay-torch: y = torch.softmax(x.view(R, C), dim=1)
//
// One line per output: the buffer's name, '=', and a Python expression over the input buffers (flat
// tensors of their declared length, as the kernel sees them) and the sizes (Python ints, derived ones
// included). kplay never runs it; a snippet exported for PyTorch (kplay-cli export --torch) checks the
// kernel's output against it. A name that is a Python keyword is written with a trailing underscore
// (`in_`). The task declaration skips these lines; the built-in tasks carry their expressions in the
// exporter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/task_spec.hpp"

namespace kplay {

struct TorchExpectation {
    std::string buffer;      // an output of the task
    std::string expression;  // Python, as written
    int line = 0;
};

// Throws InputError "FILE:LINE: kplay-torch: ..." for a line without `NAME = EXPRESSION`, a name that is
// not an output of `task`, or an output given twice.
std::vector<TorchExpectation> torch_expectations(std::string_view source, const TaskSpec& task, const std::string& file);

}  // namespace kplay
