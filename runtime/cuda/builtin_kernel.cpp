// Building one of kplay's own kernels.
#include "cuda/builtin_kernel.hpp"

#include <string>

#include "base/error.hpp"
#include "base/cache_dir.hpp"
#include "compile/compile_cache.hpp"
#include "compile/nvrtc_compiler.hpp"

namespace kplay {

Module build_builtin_module(const DeviceInfo& device, const char* source, const char* file) {
    CompileRequest request;
    request.source = source;
    request.source_path = file;
    request.options.arch = device.arch();
    request.options.lineinfo = false;
    // Kept in the user's compile cache: every new worker (one after each sticky fault) builds these
    // before its first run, and the check kernel alone is ~0.6 s of CPU time for NVRTC and ptxas on the
    // dev machine.
    static CompileCache cache(default_cache_dir());
    const CompileResult compiled = cache.compile(request);
    if (!compiled.ok) throw InputError(std::string("Internal: kplay's kernel ") + file + " did not compile: " + compiled.log);
    return Module::load(compiled.binary);
}

BuiltinKernel build_builtin_kernel(const DeviceInfo& device, const char* source, const char* file, const char* name) {
    BuiltinKernel kernel;
    kernel.module = build_builtin_module(device, source, file);
    kernel.function = kernel.module.function(name);
    return kernel;
}

}  // namespace kplay
