// NVRTC program lifecycle: create, add name expressions, compile, read log and binary, destroy.
#include "compile/nvrtc_compiler.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string_view>
#include <cstdlib>
#include <filesystem>

#include "base/error.hpp"
#include "base/text.hpp"
#include "compile/cub_stand_in.hpp"
#include "compile/host_launch_headers.hpp"
#include "compile/nvrtc_host_headers.hpp"
#include "compile/nvrtc_log.hpp"
#include "compile/pch_log.hpp"

namespace kplay {

namespace {

// NVRTC 13.0.88 (the H200 machine's) keeps ptxas's results in the driver's ComputeCache (~/.nv), keyed
// by the PTX, and on a hit there skips ptxas and with it the -v report: a text's resources vanished from
// its second compile on a machine. kplay's own cache keeps whole results, the report included, so
// NVRTC's is off for this process (the worker, the compile server, kplay-cli --in-process; they load
// CUBINs, which need no JIT cache). NVRTC reads the variable at its first call, whichever that is
// (nvrtcVersion for a cache key, often): so before main, not at the first compile. With it on, an edit
// that leaves the PTX as it was (a comment) skips ptxas: 15 ms instead of 470 for matmul 08 on the H200,
// which made in-process compiles look fast.
[[maybe_unused]] const bool kNvrtcComputeCacheOff = setenv("CUDA_CACHE_DISABLE", "1", 1) == 0;

// Move-only owner of an nvrtcProgram: destroyed on every path, error paths included.
class NvrtcProgram {
public:
    // With the stand-ins for nvcc's host headers as in-memory headers (nvrtc_host_headers.hpp).
    NvrtcProgram(const std::string& source, const std::string& name) {
        std::vector<const char*> names, texts;
        for (const NvrtcHeader& header : nvrtc_host_headers()) {
            names.push_back(header.name);
            texts.push_back(header.text);
        }
        KPLAY_NVRTC(nvrtcCreateProgram(&program_, source.c_str(), name.c_str(), static_cast<int>(names.size()), texts.data(),
                                       names.data()));
    }
    ~NvrtcProgram() {
        if (program_) nvrtcDestroyProgram(&program_);
    }
    NvrtcProgram(const NvrtcProgram&) = delete;
    NvrtcProgram& operator=(const NvrtcProgram&) = delete;
    nvrtcProgram get() const { return program_; }

private:
    nvrtcProgram program_ = nullptr;
};

std::string read_log(nvrtcProgram program) {
    size_t size = 0;
    KPLAY_NVRTC(nvrtcGetProgramLogSize(program, &size));
    std::string log(size, '\0');
    if (size) KPLAY_NVRTC(nvrtcGetProgramLog(program, log.data()));
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

bool is_cubin_arch(const std::string& arch) { return arch.rfind("sm_", 0) == 0; }

// CCCL's <cuda/std/cmath> defines INFINITY and NAN for NVRTC without asking whether they exist, as the
// host's <math.h> does under nvcc; over the stand-in prelude's definitions (the same values) NVRTC warns
// "incompatible redefinition of macro". The warning is kplay's doing, not the file's: it is left out of
// the diagnostics (the log keeps it).
void drop_stand_in_redefinitions(std::vector<Diagnostic>& diagnostics) {
    const std::string ours = std::string(" of ") + kNvrtcHostPrelude + ")";
    diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(),
                                     [&](const Diagnostic& d) {
                                         return d.code == "47-D" && d.message.find(ours) != std::string::npos;
                                     }),
                      diagnostics.end());
}

// The source line of each PTX line, from its `.loc N LINE COL` directives (a line takes the last .loc
// before it) and the `.file N "path"` table (NVRTC writes it after the code, the path made absolute
// against the working directory). The kernel file is named as the request names it; a header it
// includes (hopper.cuh's wgmma wrappers) by the path in the table.
struct SourcePlace {
    std::string file;
    int line = 0, column = 0;
};
struct PtxLineInfo {
    std::vector<SourcePlace> source;  // by PTX line (1-based; [0] unused); line 0: unknown
};

// The PTX's lines without their indentation.
std::vector<std::string_view> text_lines(std::string_view text) {
    std::vector<std::string_view> lines = split_lines(text);
    for (std::string_view& line : lines) {
        const size_t first = line.find_first_not_of(" \t");
        line = first == std::string_view::npos ? std::string_view() : line.substr(first);
    }
    return lines;
}

bool names_source(std::string_view file, const std::string& source_path) {
    if (file == source_path) return true;
    return file.size() > source_path.size() && file.substr(file.size() - source_path.size()) == source_path &&
           file[file.size() - source_path.size() - 1] == '/';
}

PtxLineInfo read_ptx_line_info(const std::string& ptx, const std::string& source_path) {
    const std::vector<std::string_view> lines = text_lines(ptx);
    std::map<int, std::string> files;  // .file number -> the path diagnostics name
    for (const std::string_view text : lines) {
        int file = 0;
        if (text.rfind(".file", 0) != 0 || std::sscanf(std::string(text).c_str(), ".file %d", &file) != 1) continue;
        const size_t open = text.find('"'), close = text.rfind('"');
        if (open == close) continue;
        const std::string_view path = text.substr(open + 1, close - open - 1);
        files[file] = names_source(path, source_path) ? source_path : std::string(path);
    }
    PtxLineInfo info;
    info.source.push_back({});
    SourcePlace current;
    for (const std::string_view text : lines) {
        int file = 0, number = 0, column = 0;
        if (text.rfind(".loc", 0) == 0 && std::sscanf(std::string(text).c_str(), ".loc %d %d %d", &file, &number, &column) >= 2)
            current = files.count(file) ? SourcePlace{files[file], number, column} : SourcePlace{};
        info.source.push_back(current);
    }
    return info;
}

// ptxas names lines of the PTX it assembled. Where the front end's PTX has line info, the same text is
// compiled again to PTX alone (what ptxas was given) and each diagnostic gets the source line of its
// PTX line; a target that lacks an instruction its 'a' variant has (wgmma on sm_90) is said in words.
void locate_ptxas_diagnostics(const CompileRequest& request, CompileResult& result) {
    const bool any = std::any_of(result.diagnostics.begin(), result.diagnostics.end(), [](const Diagnostic& d) { return d.ptx_line > 0; });
    if (!any || !is_cubin_arch(request.options.arch)) return;
    CompileRequest ptx_only = request;
    ptx_only.options.arch = "compute_" + request.options.arch.substr(3);
    ptx_only.options.lineinfo = true;
    const CompileResult ptx = compile_with_nvrtc(ptx_only);
    const std::string source_path = request.source_path.empty() ? "kernel.cu" : request.source_path;
    const PtxLineInfo info = ptx.ok ? read_ptx_line_info(ptx.binary, source_path) : PtxLineInfo{};
    const std::string target = request.options.arch;
    for (Diagnostic& diagnostic : result.diagnostics) {
        if (diagnostic.ptx_line <= 0) continue;
        if (static_cast<size_t>(diagnostic.ptx_line) < info.source.size() && info.source[diagnostic.ptx_line].line > 0) {
            const SourcePlace& place = info.source[diagnostic.ptx_line];
            diagnostic.file = place.file;
            diagnostic.line = place.line;
            diagnostic.column = place.column;
        }
        if (diagnostic.message.find("not supported on .target '" + target + "'") != std::string::npos && target.back() != 'a')
            diagnostic.context = "PTX line " + std::to_string(diagnostic.ptx_line) + ". This instruction is one of " + target +
                                 "a's own (architecture-specific: wgmma, setmaxnreg, ...): compile for " + target +
                                 "a (arch=" + target + "a in the file's kplay annotation).";
        else if (diagnostic.context.empty())
            diagnostic.context = "PTX line " + std::to_string(diagnostic.ptx_line);
    }
}

}  // namespace

std::string nvrtc_version_string() {
    int major = 0, minor = 0;
    nvrtcVersion(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

void check_arch_supported(const std::string& arch) {
    const bool sm = arch.rfind("sm_", 0) == 0, compute = arch.rfind("compute_", 0) == 0;
    const std::string digits = arch.substr(sm ? 3 : compute ? 8 : 0);
    int number = 0;
    try {
        size_t used = 0;
        number = std::stoi(digits, &used);
        if (used == 0) number = 0;
    } catch (...) {
        number = 0;
    }
    int count = 0;
    nvrtcGetNumSupportedArchs(&count);
    std::vector<int> archs(static_cast<size_t>(std::max(count, 0)));
    if (count > 0) nvrtcGetSupportedArchs(archs.data());
    const bool known = (sm || compute) && std::find(archs.begin(), archs.end(), number) != archs.end();
    if (!known) {
        std::string list;
        for (int a : archs) list += (list.empty() ? "" : ", ") + std::string("sm_") + std::to_string(a);
        throw InputError("Unsupported architecture '" + arch + "'. NVRTC " + nvrtc_version_string() +
                         " supports: " + list + " (use compute_XX for PTX).");
    }
}

std::vector<std::string> nvrtc_options(const CompileRequest& request) {
    const CompileOptions& options = request.options;
    std::vector<std::string> list;
    list.push_back("--gpu-architecture=" + options.arch);
    list.push_back("-std=c++17");
    if (options.lineinfo) list.push_back("-lineinfo");
    if (options.resource_report && is_cubin_arch(options.arch)) list.push_back("--ptxas-options=-v");
    const std::filesystem::path source_dir = std::filesystem::path(request.source_path).parent_path();
    if (!source_dir.empty()) list.push_back("-I" + source_dir.string());
    for (const auto& dir : options.include_dirs) {
        list.push_back("-I" + dir);
        // CUDA 13 keeps CCCL (cuda/std, cub, thrust: cooperative groups need them) in include/cccl, which
        // nvcc adds to its path by itself and NVRTC does not.
        std::error_code error;
        if (std::filesystem::is_directory(std::filesystem::path(dir) / "cccl" / "cuda" / "std", error)) list.push_back("-I" + dir + "/cccl");
    }
    // What nvcc's implicit includes would have given the file (uint, INFINITY, M_PI); the stand-ins' hash
    // keys the compile cache, since the option list is its key.
    list.push_back(std::string("--pre-include=") + kNvrtcHostPrelude);
    list.push_back("-D__KPLAY_NVRTC_HOST__=0x" + nvrtc_host_headers_hash());
    for (const auto& [name, value] : options.defines) list.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    list.insert(list.end(), options.extra.begin(), options.extra.end());
    return list;
}

CompileResult compile_with_nvrtc(const CompileRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    CompileResult result;
    result.arch = request.options.arch;
    result.is_cubin = is_cubin_arch(request.options.arch);
    result.options_used = nvrtc_options(request);
    result.diagnostics = host_launch_header_errors(request.source, request.source_path, request.options.include_dirs);
    if (!result.diagnostics.empty()) {
        result.ok = false;
        result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return result;
    }

    NvrtcProgram program(request.source, request.source_path.empty() ? "kernel.cu" : request.source_path);
    for (const auto& expression : request.name_expressions)
        KPLAY_NVRTC(nvrtcAddNameExpression(program.get(), expression.c_str()));

    if (request.options.pch) result.options_used.push_back("-pch");
    std::vector<const char*> argv;
    for (const auto& option : result.options_used) argv.push_back(option.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
    result.log = read_log(program.get());
    result.pch = take_pch_lines(result.log);
    result.diagnostics = parse_nvrtc_log(result.log);
    drop_stand_in_redefinitions(result.diagnostics);
    place_cub_refusals(result.diagnostics, request.source, request.source_path.empty() ? "kernel.cu" : request.source_path);

    if (compiled == NVRTC_SUCCESS) {
        size_t size = 0;
        if (result.is_cubin) {
            KPLAY_NVRTC(nvrtcGetCUBINSize(program.get(), &size));
            result.binary.resize(size);
            KPLAY_NVRTC(nvrtcGetCUBIN(program.get(), result.binary.data()));
            // The PTX the CUBIN was built from, for the inspect views (NVRTC keeps both).
            KPLAY_NVRTC(nvrtcGetPTXSize(program.get(), &size));
            result.ptx.resize(size);
            KPLAY_NVRTC(nvrtcGetPTX(program.get(), result.ptx.data()));
            while (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
        } else {
            KPLAY_NVRTC(nvrtcGetPTXSize(program.get(), &size));
            result.binary.resize(size);  // includes the terminating NUL the driver needs
            KPLAY_NVRTC(nvrtcGetPTX(program.get(), result.binary.data()));
        }
        for (const auto& expression : request.name_expressions) {
            const char* lowered = nullptr;
            KPLAY_NVRTC(nvrtcGetLoweredName(program.get(), expression.c_str(), &lowered));
            result.lowered_names[expression] = lowered;
        }
        result.ok = true;
    } else if (compiled == NVRTC_ERROR_COMPILATION || compiled == NVRTC_ERROR_INVALID_OPTION ||
               compiled == NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID) {
        result.ok = false;
        locate_ptxas_diagnostics(request, result);
        if (result.count(Severity::error) == 0)
            result.failure = std::string(nvrtcGetErrorString(compiled)) + (result.log.empty() ? "" : ": " + result.log);
    } else {
        detail::throw_nvrtc_error(compiled, "nvrtcCompileProgram", __FILE__, __LINE__);
    }
    result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.lookup_ms = result.compile_ms;
    return result;
}

}  // namespace kplay
