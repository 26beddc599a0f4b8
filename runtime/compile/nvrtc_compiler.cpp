// NVRTC program lifecycle: create, add name expressions, compile, read log and binary, destroy.
#include "compile/nvrtc_compiler.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "base/error.hpp"
#include "compile/nvrtc_log.hpp"

namespace kplay {

namespace {

// Move-only owner of an nvrtcProgram: destroyed on every path, error paths included.
class NvrtcProgram {
public:
    NvrtcProgram(const std::string& source, const std::string& name) {
        KPLAY_NVRTC(nvrtcCreateProgram(&program_, source.c_str(), name.c_str(), 0, nullptr, nullptr));
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
    for (const auto& dir : options.include_dirs) list.push_back("-I" + dir);
    for (const auto& [name, value] : options.defines) list.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    list.insert(list.end(), options.extra.begin(), options.extra.end());
    return list;
}

CompileResult compile_with_nvrtc(const CompileRequest& request) {
    // NVRTC 13.0.88 (the H200 machine's) keeps ptxas's results in the driver's ComputeCache (~/.nv) and,
    // on a hit there, skips ptxas and with it the -v report: a text's resources vanished from its second
    // compile on a machine. kplay's own cache keeps whole results, the report included, so NVRTC's is off
    // (for this process: the worker, or kplay-cli --in-process; it loads CUBINs, which need no JIT cache).
    static const bool nvrtc_cache_off = setenv("CUDA_CACHE_DISABLE", "1", 1) == 0;
    (void)nvrtc_cache_off;
    const auto start = std::chrono::steady_clock::now();
    CompileResult result;
    result.arch = request.options.arch;
    result.is_cubin = is_cubin_arch(request.options.arch);
    result.options_used = nvrtc_options(request);

    NvrtcProgram program(request.source, request.source_path.empty() ? "kernel.cu" : request.source_path);
    for (const auto& expression : request.name_expressions)
        KPLAY_NVRTC(nvrtcAddNameExpression(program.get(), expression.c_str()));

    std::vector<const char*> argv;
    for (const auto& option : result.options_used) argv.push_back(option.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
    result.log = read_log(program.get());
    result.diagnostics = parse_nvrtc_log(result.log);

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
