// Diagnostic printing shared by `compile` and `run`.
#include "diagnostic_printer.hpp"

#include <cstdio>

namespace kplay::cli {

void print_diagnostics(std::ostream& out, const CompileResult& result) {
    for (const auto& diagnostic : result.diagnostics) {
        out << format_gcc_style(diagnostic) << "\n";
        if (!diagnostic.source_line.empty()) {
            out << "  " << diagnostic.source_line << "\n";
            if (diagnostic.column > 0) {
                // Keep tabs from the source line so the caret lands under the right character.
                std::string pad;
                for (int i = 0; i < diagnostic.column - 1 && i < static_cast<int>(diagnostic.source_line.size()); ++i)
                    pad += diagnostic.source_line[i] == '\t' ? '\t' : ' ';
                out << "  " << pad << "^\n";
            }
        }
        if (!diagnostic.context.empty()) out << "  " << diagnostic.context << "\n";
    }
    if (!result.failure.empty()) out << "error: " << result.failure << "\n";
}

void print_compile_summary(std::ostream& out, const std::string& file, const CompileResult& result) {
    char line[512];
    const int errors = result.count(Severity::error), warnings = result.count(Severity::warning);
    std::snprintf(line, sizeof line, "%s %s for %s in %.1f ms (%s), %d error%s, %d warning%s", result.ok ? "compiled" : "failed to compile",
                  file.c_str(), result.arch.c_str(), result.cache_hit ? result.lookup_ms : result.compile_ms,
                  result.cache_hit ? "cache hit" : "cache miss", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
    out << line << "\n";
}

}  // namespace kplay::cli
