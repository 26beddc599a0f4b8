// Finding libasan/libubsan through the host compiler, and what a thorough build needs.
#include "emu/sanitizer_runtime.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include "emu/host_compiler.hpp"
#include "base/subprocess.hpp"
#include "base/error.hpp"

namespace kplay {

namespace {

std::string runtime_library(const std::string& compiler, const std::string& name) {
    const ProcessResult found = run_process({compiler, "-print-file-name=" + name});
    const std::string path = found.output.substr(0, found.output.find('\n'));
    // An unknown name is printed back unchanged: only an absolute, existing path counts.
    return found.exit_code == 0 && !path.empty() && path[0] == '/' && access(path.c_str(), R_OK) == 0 ? path : "";
}

}  // namespace

std::vector<std::string> sanitizer_worker_environment() {
    const HostCompiler& compiler = host_compiler();
    if (compiler.path.empty()) throw InputError(compiler.problem);
    const std::string asan = runtime_library(compiler.path, "libasan.so");
    const std::string ubsan = runtime_library(compiler.path, "libubsan.so");
    if (asan.empty() || ubsan.empty())
        throw InputError("Thorough mode needs the host compiler's AddressSanitizer and UBSan runtimes (libasan.so, libubsan.so), "
                         "and " + compiler.path + " has none; on Debian they come with g++ (libgcc-12-dev).");
    // Leaks are not a kernel's business; the first report ends the launch; reports go to stderr, which
    // the launch process points at a buffer kplay reads back.
    return {"LD_PRELOAD=" + asan + " " + ubsan,
            "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0:handle_segv=0:handle_abort=0:detect_stack_use_after_return=0:"
            "allow_user_segv_handler=1:print_summary=1",
            "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:print_summary=1"};
}

bool sanitizer_runtime_loaded() { return dlsym(RTLD_DEFAULT, "__asan_init") != nullptr; }

const std::vector<std::string>& sanitizer_build_flags() {
    static const std::vector<std::string> flags = {"-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                                                   "-fno-omit-frame-pointer", "-O1"};
    return flags;
}

bool is_sanitizer_symbol(const std::string& name) {
    return name.rfind("__asan_", 0) == 0 || name.rfind("__ubsan_", 0) == 0 || name.rfind("__sanitizer_", 0) == 0;
}

}  // namespace kplay
