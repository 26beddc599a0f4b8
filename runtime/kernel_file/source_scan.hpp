// Facts read from a kernel file's text without compiling it: its kernels and the headers it includes.
//
// The kernel list lets kplay infer which kernel to run and, when a requested name is missing, list the
// kernels the file does have. The include list makes the compile cache key cover header contents.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kplay {

struct KernelParam {
    std::string type;  // as written, e.g. "unsigned char*", "const float *__restrict__", "int"
    std::string name;
    bool is_pointer() const;
};

struct KernelDecl {
    std::string name;
    bool is_template = false;
    bool is_extern_c = false;
    std::vector<KernelParam> params;
    int line = 0;
    std::string scope;  // the named namespaces around it, "vllm" or "a::b"; empty at namespace scope or in an unnamed one
    // The name as code outside its namespaces names it: "vllm::rms_norm_kernel".
    std::string qualified_name() const { return scope.empty() ? name : scope + "::" + name; }
};

// Reads a kernel file: strips a UTF-8 byte-order mark (NVRTC would see it as text) and turns CRLF line
// endings into LF, so that a file saved on Windows reads as it does elsewhere (lines keep their numbers).
// Throws InputError with a clear message when the file is missing, unreadable or not text.
std::string read_source_file(const std::filesystem::path& path);

// The name of the folder a kernel file really lies in: from its absolute path with symbolic links
// resolved, so "seed.cu" run from inside grayscale/, or a link to a ladder's step, names its task folder.
std::string kernel_folder_name(const std::filesystem::path& path);

// Reads `// kplay-NAME: REST` (a declaration or launch line) into NAME and REST, as std::regex
// R"(^\s*//\s*kplay-([A-Za-z]+)\s*:(.*)$)" would, by hand: the regex recursed once per character and
// overflowed the stack on a long line (tests/fuzz/fuzz_spec). A line ending in CR (CRLF text that did not
// come through read_source_file) loses the CR; a CR anywhere else makes it no declaration.
bool match_kplay_line(std::string_view line, std::string& name, std::string& rest);

// Reads `#include <NAME>` or `#include "NAME"` as std::regex R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])"
// would, by hand (the regex recursed once per character and could overflow the stack on a long line).
// `opening` is '<' or '"'; `after`, when given, is where the line goes on after the closing delimiter.
bool match_include_line(std::string_view line, char& opening, std::string& name, size_t* after = nullptr);

// Replaces comments and string/char literals with spaces, keeping every newline, so offsets and lines hold.
// `strings` false: comments only.
std::string blank_comments_and_strings(std::string_view source, bool strings = true);

// Whether the code (comments and strings aside) calls cooperative groups' this_grid(): its grid.sync()
// needs a cooperative launch.
bool uses_grid_sync(std::string_view source);

// Every __global__ function defined or declared in the source, in order of appearance, without repeats.
std::vector<KernelDecl> find_kernels(std::string_view source);

// Headers reachable through #include from the source, resolved against `search_dirs` (in order) with
// quoted includes also tried next to the including file. Returns absolute paths of the files found.
// Unresolved names (toolkit and built-in headers) are returned in `unresolved`.
std::vector<std::filesystem::path> find_included_files(std::string_view source, const std::filesystem::path& source_dir,
                                                       const std::vector<std::filesystem::path>& search_dirs,
                                                       std::vector<std::string>* unresolved = nullptr);

// A parameter or template-argument list split at its top-level commas (outside <>, (), []), each part
// trimmed: "const Foo<a, b>* x, int n" -> {"const Foo<a, b>* x", "int n"}.
std::vector<std::string> split_type_list(const std::string& list);

// A plain function named `name` (declared or defined, not called), the first one in the file; nullopt
// when there is none. Used to find a task's host reference and check its parameters.
std::optional<KernelDecl> find_function(std::string_view source, std::string_view name);

// For each line (1-based; index 0 unused), whether it lies where `macro` is defined by an enclosing
// `#ifdef macro` / `#if defined(macro)` branch (a task's host reference sits under KPLAY_REFERENCE).
std::vector<bool> lines_defining(std::string_view source, std::string_view macro);

}  // namespace kplay
