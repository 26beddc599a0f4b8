// Compiling a run's kernels with NVRTC for the device it goes to.
#include "run/compile_kernels.hpp"

#include "base/error.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "kernel_file/include_dirs.hpp"
#include "kernel_file/target_arch.hpp"

namespace kplay {

namespace {

// The file's arch= unless the request names one.
const std::string& wanted_arch(const RunRequest& request, const KernelFile& file) {
    return request.arch.empty() ? file.spec.arch : request.arch;
}

std::string to_ptx_arch(const std::string& arch) { return arch.rfind("sm_", 0) == 0 ? "compute_" + arch.substr(3) : arch; }

}  // namespace

void check_target_arch(const RunRequest& request, const KernelFile& file, const Target& target, const DeviceQuery& devices) {
    const std::string& wanted = wanted_arch(request, file);
    if (target.emulate || wanted.empty() || request.device >= static_cast<int>(devices.devices.size())) return;
    const DeviceInfo& device = devices.devices[static_cast<size_t>(request.device)];
    if (const auto mismatch = arch_mismatch(wanted, device.cc_major, device.cc_minor))
        throw InputError(request.kernel_path.filename().string() + ": arch=" + wanted + ": " + *mismatch + " (device " +
                         std::to_string(device.ordinal) + ", " + device.name + ").");
}

CompileResult compile_kernels(const RunRequest& request, const KernelFile& file, const Target& target, const EngineServices& services) {
    CompileRequest compile;
    compile.source = file.source;
    compile.source_path = request.kernel_path.string();
    compile.name_expressions = file.spec.kernel_expressions();
    compile.options.arch = choose_arch(wanted_arch(request, file), target.emulate, request.device, services.devices);
    compile.options.include_dirs = kernel_include_dirs(file.spec, request.kernel_path, request.include_dirs);
    for (const auto* dir : {&services.config.kernels_include_dir, &services.config.cuda_include_dir})
        if (!dir->empty()) compile.options.include_dirs.push_back(dir->string());
    compile.options.defines = file.spec.defines;
    compile.options.extra = file.spec.nvrtc_options;
    return services.compile_cache.compile(compile);
}

std::string choose_arch(const std::string& requested, bool want_ptx, int device, const DeviceQuery& query) {
    std::string arch = requested;
    if (arch.empty()) arch = device < static_cast<int>(query.devices.size()) ? query.devices[device].arch() : kDefaultArch;
    if (want_ptx) arch = to_ptx_arch(arch);
    check_arch_supported(arch);
    return arch;
}

}  // namespace kplay
