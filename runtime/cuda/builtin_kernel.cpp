// Building one of kplay's own kernels.
#include "cuda/builtin_kernel.hpp"

#include <string>

#include "base/error.hpp"
#include "compile/nvrtc_compiler.hpp"

namespace kplay {

BuiltinKernel build_builtin_kernel(const DeviceInfo& device, const char* source, const char* file, const char* name) {
    CompileRequest request;
    request.source = source;
    request.source_path = file;
    request.options.arch = device.arch();
    request.options.lineinfo = false;
    const CompileResult compiled = compile_with_nvrtc(request);
    if (!compiled.ok) throw InputError(std::string("Internal: kplay's kernel ") + file + " did not compile: " + compiled.log);
    BuiltinKernel kernel;
    kernel.module = Module::load(compiled.binary);
    kernel.function = kernel.module.function(name);
    return kernel;
}

}  // namespace kplay
