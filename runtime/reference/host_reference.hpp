// Building a kernel file's host reference: the plain C++ function under `#ifdef KPLAY_REFERENCE` that
// takes the kernel's arguments as host pointers and values and computes what the kernel should write.
//
// It is built by the host compiler the emulated device uses, against the real C++ standard library
// (runtime/emu/include/reference/ holds its prelude and stand-ins for the CUDA headers), and treated as
// untrusted code like an emulated kernel: the source is checked before compiling (reference_source),
// the object's symbols before loading (check_host_reference_is_confined), and it runs once in a forked,
// sandboxed process with a timeout (run_emulated_call). Objects are cached like emulated kernels.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace kplay {

struct HostReferenceBuildRequest {
    std::string source;  // the kernel file's text
    // The user's file: its folder holds quoted includes; #line and messages name it as kplay names kernel
    // files, by folder and name ("matmul/01_seed_naive.cu").
    std::string source_path;
    std::string function = "kplay_reference";
    std::vector<std::pair<std::string, std::string>> defines;
    std::vector<std::string> constants;     // __constant__ arrays to give accessors (kplay-constant)
    std::vector<std::string> include_dirs;  // e.g. kernels_src/include (kplay.cuh)
    std::filesystem::path emu_include_dir;  // runtime/emu/include; the reference's prelude is in reference/
    std::filesystem::path cache_dir;        // empty: a temporary folder
    // Tests turn this off to prove the sandbox on its own. Then the object is neither checked nor loaded
    // here, and param_sizes stays empty.
    bool check_symbols = true;
};

struct HostReferenceObject {
    bool ok = false;
    std::filesystem::path shared_object;
    std::string diagnostics;          // the compiler's output when it failed (with the user's line numbers)
    std::vector<size_t> param_sizes;  // sizeof each parameter of the reference function, in order
    double compile_ms = 0;
    bool cache_hit = false;
};

// Throws InputError for a refused source or object (naming the file, line or symbol); a compile error
// is a value (ok false, diagnostics), and a missing, overloaded or template function reads
// "no host reference function 'kplay_reference(...)' in FILE: ...".
HostReferenceObject build_host_reference(const HostReferenceBuildRequest& request);

// The object's exports, generated after the user's last line:
//   void <entry>(void** args)       calls the reference once; each args[i] points at one argument's bytes
//   int <params>(unsigned long* sizes, int max)   the parameters' sizes; returns their count
//   int <bind>(double* progress, char* failure, unsigned long capacity)   before the entry: where
//       kplay_progress() stores, and where an assert or an escaping exception leaves its text
std::string host_reference_entry_symbol();
std::string host_reference_params_symbol();
std::string host_reference_bind_symbol();

}  // namespace kplay
