// Compiler diagnostics as values, printed the way editors expect (gcc style). compile/nvrtc_log.hpp
// makes them from NVRTC's log.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kplay {

enum class Severity { error, warning, remark };

struct Diagnostic {
    std::string file;         // as NVRTC names it (kplay passes the user's path), empty for global errors
    int line = 0;             // 1-based, 0 when the message has no location
    int column = 0;           // 1-based from NVRTC's caret line, 0 when there is no caret
    Severity severity = Severity::error;
    std::string code;         // NVRTC's diagnostic number such as "177-D", when given
    std::string message;
    std::string source_line;  // the offending line as NVRTC echoed it, without its indent prefix
    std::string context;      // follow-up lines such as "detected during instantiation of ..."
    // ptxas's diagnostics name a line of the PTX it assembled; the compiler maps it to the source line
    // through the PTX's line info (`.loc`) where it can, and keeps it here either way.
    int ptx_line = 0;
};

const char* severity_name(Severity severity);

// "path:line:col: error: message" (column and line omitted when unknown), as gcc and clang print it.
std::string format_gcc_style(const Diagnostic& diagnostic);

}  // namespace kplay
