// Reading the kernel file and resolving its spec for this request.
#include "run/read_file.hpp"

#include "plan/plan.hpp"
#include "kernel_file/host_code.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/task_declaration.hpp"

namespace kplay {

std::string read_source(const RunRequest& request) { return request.source ? *request.source : read_source_file(request.kernel_path); }

KernelFile read_kernel_file(const RunRequest& request, std::string source) {
    KernelFile file;
    file.source = std::move(source);
    file.spec = resolve_kernel_spec(file.source, request.kernel_path, &file.reference_source);
    file.source = set_aside_host_code(file.source).text;  // the kernel's build: NVRTC's and the emulated device's
    file.spec.defines = merge_defines(file.spec.defines, request.defines);
    for (const auto& [buffer, init] : request.init_overrides) override_input_init(file.spec.task, buffer, init);
    return file;
}

}  // namespace kplay
