// Binding a spec's argument list to a kernel's real parameters.
//
// Each spec argument is a buffer name (bound as a device pointer; `buffer+offset` and `null` too), an
// expression over the task's values ("n", "M*N", "1/sqrt(d)" for a float), a named literal ("tw=16",
// usable in block/smem expressions too; "lr=1e-3" for a float), or a struct (kplay-struct). The
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
#include "values/kernel_resources.hpp"
#include "values/run_report.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/struct_decl.hpp"
#include "kernel_file/task_spec.hpp"
#include "kernel_file/texture_decl.hpp"

namespace kplay {

// A task buffer as the binding sees it.
struct BindableBuffer {
    std::string name;
    ElementType type = ElementType::f32;
    int64_t count = -1;  // elements, for an offset's range check; -1: not known
};

// Named literals ("tw=16") of a spec's arguments, with --arg overrides applied. Throws InputError for an
// override that names no literal, and for a literal that shadows a task value.
NamedValues literal_arguments(const std::vector<std::string>& args, const std::map<std::string, std::string>& overrides,
                              const NamedValues& task_values);

// The argument list with each overridden literal's value replaced ("lr=1e-3" -> "lr=2e-3" for --arg lr=2e-3):
// the binding evaluates a real literal from its text.
std::vector<std::string> with_overrides(std::vector<std::string> args, const std::map<std::string, std::string>& overrides);

// Resolves every argument. `declaration` may be null. An argument named in `tensor_maps` is a TMA
// descriptor (a 128-byte parameter the device fills in; BoundArgument::tensor_map is its index there);
// one named in `structs` is a struct built from its fields; one named in `images` a texture or surface
// object (8 bytes the device fills in; BoundArgument::texture is its index there), whose bytes hold its
// buffer's address until then, which is what the host reference is called with. A pointer takes a buffer, `buffer+offset`
// (elements; checked against the buffer's length) or null (`0`, `null`); a float or double parameter a
// real expression (`1e-3`, `1/sqrt(d)`, a literal `lr=1e-3`), an integer one an integer expression.
// Throws InputError naming the argument when the count or a size does not match, a pointer's element
// type does not fit its buffer, or an expression cannot be evaluated.
std::vector<BoundArgument> bind_arguments(const std::string& kernel_name, const std::vector<std::string>& args,
                                          const NamedValues& names, const std::vector<BindableBuffer>& buffers,
                                          const std::vector<ParamLayout>& params, const KernelDecl* declaration,
                                          const std::vector<std::string>& tensor_maps = {}, const std::vector<StructDecl>& structs = {},
                                          const std::vector<TextureDecl>& images = {});

// The arguments with each buffer's address stored, as `address(buffer index)` gives it.
template <typename AddressOf>
std::vector<BoundArgument> with_addresses(std::vector<BoundArgument> arguments, AddressOf address) {
    for (auto& argument : arguments)
        for (const PointerSlot& slot : argument.pointers) {
            const uint64_t pointer = address(static_cast<size_t>(slot.buffer)) + slot.offset;
            __builtin_memcpy(argument.storage + slot.at, &pointer, sizeof pointer);
        }
    return arguments;
}

// cuLaunchKernel's argument array: one pointer per argument, at its storage.
std::vector<void*> argument_pointers(std::vector<BoundArgument>& arguments);

}  // namespace kplay
