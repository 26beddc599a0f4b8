// The host code of a kernel file, and the text the kernel is built from without it.
//
// A PyTorch load_inline source or a PMPP exercise keeps its kernel beside host code: torch, ATen, c10 and
// pybind11 includes, TORCH_CHECK macros, a wrapper that allocates and launches with <<<...>>>, a main().
// NVRTC cannot compile that code and the kernel does not need it, so the kernel's build (NVRTC and the
// emulated device) gets the file with it blanked: every character but the newlines becomes a space, so
// NVRTC's and the host compiler's lines and columns stay the user's. The host reference's build (under
// KPLAY_REFERENCE) keeps the file as written.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kplay {

// A function defined at namespace scope, read from the text (not a parser): its name, its line and the
// offsets of its header and body in the source.
struct SourceFunction {
    std::string name;
    int line = 0;             // 1-based, of the name
    size_t begin = 0;         // the first character of its declaration (a template<...> line included)
    size_t body_open = 0;     // its '{'
    size_t end = 0;           // one past its '}'
    bool is_device = false;   // __global__, __device__ (or __host__ __device__), or a macro that says so
    bool is_constexpr = false;
};

// One piece set aside: what it is, as the user would name it, and where.
struct SetAside {
    std::string what;  // "#include <torch/extension.h>", "macro CHECK_INPUT", "host function rgb_to_grayscale"
    int first_line = 0;
    int last_line = 0;
};

struct KernelBuildSource {
    std::string text;                 // the source with the host code blanked
    std::vector<SetAside> set_aside;  // in order of the file
};

// Every function the file defines at namespace scope (inside namespaces and extern "C" blocks too),
// in order.
std::vector<SourceFunction> find_defined_functions(std::string_view source);

// The file's object-like macros (`#define TILE 16`): name -> its text, comments blanked; the last wins.
std::map<std::string, std::string> object_macros(std::string_view source);

// The file at namespace scope: comments, strings, directives and every function's body blanked, so a
// constant declared there (`constexpr int kThreads = 256;`) can be found.
std::string namespace_scope_code(std::string_view source);

// What NVRTC and the emulated device compile: host-only includes (torch/, ATen/, c10/, pybind11/,
// Python.h, cuda_runtime.h and the C++ library headers NVRTC lacks), macros that use TORCH_CHECK or
// another set-aside macro, functions that are neither __global__, __device__ nor constexpr (outside
// KPLAY_REFERENCE), and declarations that name torch, at, c10 or pybind11, blanked. Conditional
// directives (#if ... #endif) inside a blanked function stay, so the file's #if nesting holds.
KernelBuildSource set_aside_host_code(std::string_view source);

// "host code set aside for the kernel's build: #include <torch/extension.h> (line 1), rgb_to_grayscale
// (lines 16-27)", or empty when nothing was.
std::string describe_set_aside(const std::vector<SetAside>& set_aside);

}  // namespace kplay
