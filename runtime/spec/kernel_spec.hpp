// The kernel spec: which task, kernel, arguments and launch shape a file asks for.
//
// It comes from the file's one-line annotation,
//     // kplay: task=matmul kernel=matmul_k<16> args=a,b,c,M,N,K launch=2d block=16,16
// or, where the annotation is absent or partial, from what is unambiguous: the task from the folder,
// the kernel from a single __global__, the arguments from the task's canonical order.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/source_scan.hpp"

namespace kplay {

class Task;

struct KernelSpec {
    std::string task;
    std::string kernel;                 // a name expression: "matmul_k", "matmul_k<16>"
    std::vector<std::string> args;      // value names, integer expressions, or name=expression literals
    int launch_dims = 1;                // 1d or 2d auto grid
    std::vector<std::string> block;     // 1..3 integer expressions
    std::vector<std::string> grid;      // empty: auto, cdiv(extent, block) per dimension
    std::string smem;                   // dynamic shared memory bytes, an integer expression; empty = 0
    std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE
    std::optional<double> tolerance;    // overrides the task's default check tolerance
    int annotation_line = 0;            // 0 when the file has no annotation
    std::vector<std::string> inferred;  // what was filled in without the annotation, for the user
    std::vector<KernelDecl> kernels;    // every kernel found in the file
    const KernelDecl* declaration() const;  // this spec's kernel among `kernels`
};

// The raw key/value pairs of a `// kplay:` line; nullopt when the file has none.
struct Annotation {
    int line = 0;
    std::vector<std::pair<std::string, std::string>> entries;
};
std::optional<Annotation> find_annotation(std::string_view source);

// Builds the spec. Throws InputError with an exact message when something cannot be inferred.
KernelSpec resolve_kernel_spec(std::string_view source, const std::filesystem::path& path);

// "a,b,c" -> {"a","b","c"}; empty parts dropped.
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace kplay
