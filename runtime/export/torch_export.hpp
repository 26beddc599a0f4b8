// A kernel tuned in kplay, taken back to PyTorch: `kplay-cli export FILE --torch` and the window's
// "Copy as PyTorch" write the same Python snippet.
//
// The snippet holds the kernel's source (headers inlined: export/standalone_source.hpp), a wrapper
// that takes tensors in the task's buffer order and checks their dtype, device, contiguity and
// length, the launch as kplay sets it up (block, the grid rule, dynamic shared memory, literal
// arguments, -D defines, each launch of a multi-kernel task), its build (torch.cuda._compile_kernel
// where this PyTorch has it and the kernel's value parameters are 32-bit ints, else
// torch.utils.cpp_extension.load_inline), and a call on random tensors at the task's default size
// checked against a PyTorch expression (the built-in tasks' own, or the file's kplay-torch lines).
//
// torch_snippet() is pure: the spec, the settings and the source in, text out.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/torch_expectation.hpp"
#include "plan/plan.hpp"

namespace kplay {

struct TorchExport {
    std::string file_name;      // the kernel file's name, for the snippet's header and its extension's name
    std::string kernel_source;  // standalone_kernel_source() of the file
    KernelSpec spec;
    LaunchSettings settings;    // what the window or the command line changed (block, grid, smem, --arg)
    std::vector<std::pair<std::string, std::string>> defines;  // -D added to (or replacing) the annotation's
    std::vector<TorchExpectation> expectations;                // the file's kplay-torch lines
};

// Reads what torch_snippet() needs beside the spec: the headers to inline and the kplay-torch lines.
// Throws InputError (an unreadable header, a wrong kplay-torch line).
TorchExport prepare_torch_export(const std::filesystem::path& file, std::string_view source, const KernelSpec& spec,
                                 const LaunchSettings& settings, std::vector<std::pair<std::string, std::string>> defines);

// Throws InputError naming what cannot be exported (a TMA descriptor, a thread block cluster) or an
// expression that does not read.
std::string torch_snippet(const TorchExport& input);

}  // namespace kplay
