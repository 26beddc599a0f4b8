// Compiler diagnostics as values: their severity names and the gcc-style line editors expect.
#include "values/compile_result.hpp"

#include <algorithm>

namespace kplay {


const char* severity_name(Severity severity) {
    switch (severity) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::remark: return "remark";
    }
    return "error";
}

std::string format_gcc_style(const Diagnostic& diagnostic) {
    std::string text;
    if (!diagnostic.file.empty()) {
        text += diagnostic.file + ":";
        if (diagnostic.line > 0) text += std::to_string(diagnostic.line) + ":";
        if (diagnostic.line > 0 && diagnostic.column > 0) text += std::to_string(diagnostic.column) + ":";
        text += " ";
    }
    text += std::string(severity_name(diagnostic.severity)) + ": " + diagnostic.message;
    if (!diagnostic.code.empty()) text += " [#" + diagnostic.code + "]";
    return text;
}

int CompileResult::count(Severity severity) const {
    return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                          [&](const Diagnostic& d) { return d.severity == severity; }));
}

}  // namespace kplay
