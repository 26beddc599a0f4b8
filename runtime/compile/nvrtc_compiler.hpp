// Compiling a kernel file with NVRTC: requests and results as values.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "values/compile_result.hpp"

namespace kplay {

struct CompileOptions {
    std::string arch = "sm_90";  // "sm_XX": CUBIN for that exact chip; "compute_XX": PTX
    bool lineinfo = true;
    // For a CUBIN: ptxas's resource report (-v) in the log, per function: registers, spills, stack,
    // shared memory and barriers, read by inspect/ptxas_report with or without a GPU.
    bool resource_report = true;
    std::vector<std::string> include_dirs;                     // searched in order after the file's own folder
    std::vector<std::pair<std::string, std::string>> defines;  // -DNAME=VALUE (VALUE may be empty)
    std::vector<std::string> extra;                            // passed through as they are
    // NVRTC's automatic precompiled headers (-pch): worth it in a process that compiles many times (the
    // compile server, compile_server.hpp). Not a part of the option list nvrtc_options() gives, so not
    // of the cache key: the binary is the same either way.
    bool pch = false;
};

struct CompileRequest {
    std::string source;                         // the file's text (BOM already stripped)
    std::string source_path;                    // the name diagnostics carry; its folder is an include path
    std::vector<std::string> name_expressions;  // kernels to look up, e.g. "matmul_k<16>"
    CompileOptions options;
};


// The exact option list handed to NVRTC for a request (also a part of the cache key).
std::vector<std::string> nvrtc_options(const CompileRequest& request);

// "13.0"
std::string nvrtc_version_string();

// Runs NVRTC. A source error is reported in the result (ok=false, diagnostics), never thrown.
// Throws ApiError only for failures of NVRTC itself (out of memory, invalid program).
CompileResult compile_with_nvrtc(const CompileRequest& request);

// Is this arch string one NVRTC accepts here ("sm_90", "compute_86")? Lists the supported ones if not.
void check_arch_supported(const std::string& arch);

}  // namespace kplay
