// libFuzzer target: splitting an NVRTC program log into diagnostics (compile/nvrtc_log.hpp), and
// printing each the way editors read them. It documents no failure: nothing may throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compile/nvrtc_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view log(reinterpret_cast<const char*>(data), size);
    for (const kplay::Diagnostic& diagnostic : kplay::parse_nvrtc_log(log)) {
        (void)kplay::format_gcc_style(diagnostic);
        (void)kplay::severity_name(diagnostic.severity);
    }
    return 0;
}
