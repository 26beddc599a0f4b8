// The kernel spec: which task a file runs, and which kernel, arguments and launch shape it asks for.
//
// It comes from the file's one-line annotation,
//     // kplay: task=matmul kernel=matmul_k<16> args=a,b,c,M,N,K launch=2d block=16,16
// together with the task: a built-in one (task=NAME or the file's folder), or the one the file
// declares itself (task_declaration.hpp). Where the annotation is absent or partial, what is
// unambiguous is inferred: the kernel from a single __global__, the arguments from the task's
// canonical order (built-in tasks) or from the kernel's parameter names (declared tasks).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_spec.hpp"
#include "kernel_file/struct_decl.hpp"
#include "kernel_file/tensor_map_decl.hpp"
#include "kernel_file/texture_decl.hpp"

namespace kplay {

// A launch after the annotated kernel's, from a `// kplay-launch: KERNEL key=value...` line: a task
// that takes several kernels (a hierarchical scan, a two-pass reduction) lists them in order, and the
// run launches them back to back and times them as one. Its expressions see the sizes, `sms`, and the
// first launch's block_x/y/z and grid_x/y/z; the window's launch settings change the first launch only.
struct FollowingLaunch {
    std::string kernel;               // a name expression
    std::vector<std::string> args;    // as the annotation's; inferred from parameter names when not given
    std::vector<std::string> block;   // 1..3 integer expressions; default: the first launch's block
    std::vector<std::string> grid;    // empty: auto over the task's extent
    std::string smem;                 // dynamic shared memory bytes; empty = 0
    int line = 0;
};

struct KernelSpec {
    TaskSpec task;
    std::string kernel;                 // a name expression: "matmul_k", "matmul_k<16>"
    std::vector<std::string> args;      // value names, integer expressions, or name=expression literals
    int launch_dims = 1;                // 1d or 2d auto grid
    std::vector<std::string> block;     // 1..3 integer expressions
    std::vector<std::string> grid;      // empty: auto, cdiv(extent, block) per dimension
    std::string smem;                   // dynamic shared memory bytes, an integer expression; empty = 0
    std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE
    std::optional<double> tolerance;    // replaces the leading tolerance of every output's check
    std::string requirement;               // an integer expression over the sizes that must hold: "n%4==0 && n>=256"
    std::vector<FollowingLaunch> following;  // the kplay-launch lines, in order
    // Hopper and later (kernel_file/target_arch.hpp, kernel_file/tensor_map_decl.hpp): the target to compile for
    // (empty: the device's), the thread block cluster (empty: none; 1..3 integer expressions), and the
    // TMA descriptors that arguments name.
    std::string arch;
    std::vector<std::string> cluster;
    // NVRTC options the file asks for (nvrtc=, checked by kernel_file/nvrtc_options.hpp, in NVRTC's
    // long spelling) and header folders (include=), as written: relative ones are beside the file.
    std::vector<std::string> nvrtc_options;
    std::vector<std::string> include_dirs;
    // Launched cooperatively (every block resident at once, so this_grid().sync() works): cooperative=yes,
    // or found by the file's use of this_grid() unless cooperative=no. The annotated launch only.
    bool cooperative = false;
    std::vector<TensorMapDecl> tensor_maps;
    std::vector<StructDecl> structs;  // struct parameters built from buffers and sizes (kplay-struct)
    std::vector<TextureDecl> textures;  // texture and surface objects that arguments name (kplay-texture, kplay-surface)
    const TextureDecl* texture(const std::string& name) const;  // by argument name; null when none
    const StructDecl* struct_arg(const std::string& name) const;  // by parameter name; null when none
    // What only a GPU can run, each named as the file writes it ("arch=sm_90a (line 1)"), for the
    // emulated device's refusal; empty when nothing.
    std::vector<std::string> gpu_only_features() const;
    const TensorMapDecl* tensor_map(const std::string& name) const;  // by argument name; null when none
    int annotation_line = 0;            // 0 when the file has no annotation
    std::vector<std::string> inferred;  // what was filled in without the annotation, for the user
    std::vector<KernelDecl> kernels;    // every kernel found in the file
    std::optional<KernelDecl> reference_function;  // a host reference's declaration, as found in the file
    const KernelDecl* declaration() const;  // this spec's kernel among `kernels`
    const KernelDecl* declaration_of(const std::string& name_expression) const;
    // Every kernel a run loads: the annotated one, then each following launch's (without repeats).
    std::vector<std::string> kernel_expressions() const;
};

// The raw key/value pairs of a `// kplay:` line; nullopt when the file has none.
struct Annotation {
    int line = 0;
    std::vector<std::pair<std::string, std::string>> entries;
};
std::optional<Annotation> find_annotation(std::string_view source);
// An annotation's text split at spaces outside double quotes (`args="(const float*)x",n`); the quotes
// stay in the tokens (unquoted() takes them out of a value).
std::vector<std::string> annotation_tokens(const std::string& text);
std::string unquoted(const std::string& value);
// A token that goes on with the value before it: two words keep a space between them.
void continue_value(std::string& value, const std::string& token);

// Builds the spec. Throws InputError with an exact message when something cannot be inferred, the
// task is unknown or declared wrongly, or a host reference is missing or takes other parameters than
// the kernel.
// `reference_source`, when given, receives the text the host reference is built from (the file with
// its local headers expanded, reference_includes.hpp), read once here for the check and the build.
KernelSpec resolve_kernel_spec(std::string_view source, const std::filesystem::path& path, std::string* reference_source = nullptr);

// The spec of a kernel that runs `task` whatever the file says of tasks (a trusted reference kernel
// serving another file's task): its annotation and kernels only.
KernelSpec resolve_kernel_spec_for_task(std::string_view source, const std::filesystem::path& path, const TaskSpec& task);

}  // namespace kplay
