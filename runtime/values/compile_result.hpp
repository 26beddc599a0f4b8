// The result of compiling a kernel file with NVRTC, as a value: diagnostics, the binary and timings.
// Made in the worker (compile/), read by every program.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "values/diagnostics.hpp"

namespace kplay {

// What NVRTC's automatic precompiled headers (-pch) did in a compile: nothing (off, or a cache hit),
// made one from the file's leading #includes, used the one a compile before made, or found the file's
// leading directives differ from every one it has (it then makes a new one: `created`).
enum class PchUse { none, created, used };

struct CompileResult {
    bool ok = false;
    std::vector<Diagnostic> diagnostics;
    std::string log;                                  // NVRTC's log, always read, also on success
    std::string binary;                               // CUBIN bytes, or PTX text
    std::string ptx;                                  // for a CUBIN: the PTX it was built from (inspection)
    bool is_cubin = false;
    std::string arch;
    std::map<std::string, std::string> lowered_names; // name expression -> mangled name in the binary
    std::vector<std::string> options_used;            // the full option list given to NVRTC
    double compile_ms = 0;                            // NVRTC's own time (of the original compile on a hit)
    double lookup_ms = 0;                             // time spent on this request, cache lookup included
    bool cache_hit = false;
    std::string failure;                              // set when NVRTC failed without a diagnostic
    PchUse pch = PchUse::none;                        // NVRTC's lines about it are taken out of `log`

    int count(Severity severity) const;
};

}  // namespace kplay
