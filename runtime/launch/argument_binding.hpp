// Binding a spec's argument list to a kernel's real parameters.
//
// Each spec argument is a buffer name (bound as a device pointer), an integer expression over the
// task's values ("n", "M*N"), or a named literal ("tw=16", usable in block/smem expressions too). The
// binding is checked against the function's parameter count and sizes (cuFuncGetParamInfo, or the
// emulated kernel's table), and a pointer's element type against the buffer's, so a wrong binding is a
// message, never garbage memory passed to the kernel. Buffers are bound by index; their addresses are
// filled in per set of device buffers (with_addresses).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/expression.hpp"
#include "client/kernel_resources.hpp"
#include "client/run_report.hpp"
#include "spec/source_scan.hpp"
#include "spec/task_spec.hpp"

namespace kplay {

// A task buffer as the binding sees it.
struct BindableBuffer {
    std::string name;
    ElementType type = ElementType::f32;
};

// Named literals ("tw=16") of a spec's arguments, with --arg overrides applied. Throws InputError for an
// override that names no literal, and for a literal that shadows a task value.
NamedValues literal_arguments(const std::vector<std::string>& args, const std::map<std::string, std::string>& overrides,
                              const NamedValues& task_values);

// Resolves every argument. `declaration` may be null. An argument named in `tensor_maps` is a TMA
// descriptor (a 128-byte parameter the device fills in; BoundArgument::tensor_map is its index there).
// Throws InputError when the count or a size does not match, a pointer's element type does not fit its
// buffer, or an expression cannot be evaluated.
std::vector<BoundArgument> bind_arguments(const std::string& kernel_name, const std::vector<std::string>& args,
                                          const NamedValues& names, const std::vector<BindableBuffer>& buffers,
                                          const std::vector<ParamLayout>& params, const KernelDecl* declaration,
                                          const std::vector<std::string>& tensor_maps = {});

// The arguments with each buffer's address stored, as `address(buffer index)` gives it.
template <typename AddressOf>
std::vector<BoundArgument> with_addresses(std::vector<BoundArgument> arguments, AddressOf address) {
    for (auto& argument : arguments)
        if (argument.buffer >= 0) {
            const uint64_t pointer = address(static_cast<size_t>(argument.buffer));
            static_assert(sizeof pointer <= sizeof argument.storage);
            __builtin_memcpy(argument.storage, &pointer, sizeof pointer);
        }
    return arguments;
}

// cuLaunchKernel's argument array: one pointer per argument, at its storage.
std::vector<void*> argument_pointers(std::vector<BoundArgument>& arguments);

}  // namespace kplay
