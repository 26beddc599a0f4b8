// Binding a spec's argument list to a loaded kernel's real parameters.
//
// Each spec argument is a buffer name (bound as a device pointer), an integer expression over the
// task's values ("n", "M*N"), or a named literal ("tw=16", usable in block/smem expressions too). The
// binding is checked against the function's parameter count and sizes from cuFuncGetParamInfo, so a
// wrong binding is a message, never garbage memory passed to the kernel.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/int_expr.hpp"
#include "cuda/module.hpp"
#include "spec/source_scan.hpp"

namespace kplay {

struct BoundArgument {
    std::string param;    // the kernel's parameter name, when known
    std::string binding;  // the spec text: "in", "n", "tw=16"
    std::string kind;     // "pointer", "int32", "int64", "float32", ...
    std::string value;    // for the user: the buffer name or the number
    alignas(8) unsigned char storage[8] = {};
    size_t size = 0;
};

// Named literals ("tw=16") of a spec's arguments, with --arg overrides applied. Throws InputError for an
// override that names no literal, and for a literal that shadows a task value.
NamedValues literal_arguments(const std::vector<std::string>& args, const std::map<std::string, std::string>& overrides,
                              const NamedValues& task_values);

// Resolves every argument. `buffers` maps buffer names to device pointers. `declaration` may be null.
// Throws InputError when the count or a size does not match, or an expression cannot be evaluated.
std::vector<BoundArgument> bind_arguments(const std::string& kernel_name, const std::vector<std::string>& args,
                                          const NamedValues& names, const std::map<std::string, uint64_t>& buffers,
                                          const std::vector<ParamLayout>& params, const KernelDecl* declaration);

}  // namespace kplay
