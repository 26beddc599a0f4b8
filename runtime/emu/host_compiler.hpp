// Building an emulated kernel's shared object with the host C++ compiler, cached on disk.
//
// The compiler is found at run time (KPLAY_HOST_CXX, else g++, else clang++). The object is linked
// freestanding (-nostdlib) with hidden visibility: only kplay's entry points are exported, and its
// undefined symbols are checked against an allowlist before it is ever loaded (shared_object_check).
// The cache key covers the rewritten source, the prelude, the included headers, the flags and the
// compiler's identity.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "emu/emu_source.hpp"

namespace kplay {

struct HostCompiler {
    std::string path;     // empty when none was found
    std::string version;  // first line of `--version`
    std::string problem;  // why none can be used
};

// Looked up once per process.
const HostCompiler& host_compiler();

struct HostBuildRequest {
    EmulatedSource source;
    std::string source_path;  // the user's file: its folder is searched for quoted includes
    std::vector<std::pair<std::string, std::string>> defines;
    std::vector<std::string> include_dirs;  // after the prelude's own folder
    std::filesystem::path emu_include_dir;  // holds kplay_emu_prelude.h and the stand-in headers
    std::filesystem::path cache_dir;        // empty: a temporary folder
    bool sanitize = false;                  // thorough mode: AddressSanitizer and UBSan
    bool track = false;                     // every load and store reported (kplay_emu_track.h)
    bool debug = false;                     // for a debugger: -O0 -g (every local kept, a line per statement)
};

struct HostBuildResult {
    bool ok = false;
    std::filesystem::path shared_object;
    std::string diagnostics;  // the compiler's output when it failed
    double compile_ms = 0;
    bool cache_hit = false;
};

HostBuildResult build_with_host_compiler(const HostBuildRequest& request);

// One host compile into a shared object, what emulated kernels and host references both build through.
// Cached on disk by everything that changes the object: the text, the flags, the preludes and every
// header reachable from them or from the text, and the compiler's identity.
struct HostCompileJob {
    std::string text;                             // the source as the compiler gets it
    std::string source_path;                      // the user's file: its folder is searched for quoted includes
    std::vector<std::string> flags;               // language, code generation, link flags and -D defines
    std::vector<std::string> include_dirs;        // -I, in order
    std::vector<std::filesystem::path> preludes;  // -include, in order
    std::filesystem::path cache_dir;              // empty: a temporary folder
    std::string what = "the emulated kernel";     // for messages: "Cannot store the emulated kernel in ..."
};

HostBuildResult compile_host_shared_object(const HostCompileJob& job);

}  // namespace kplay
