// Splitting NVRTC's program log into diagnostics (file, line, column from the caret line, severity,
// message, the echoed source line and follow-up context).
#pragma once

#include <string_view>
#include <vector>

#include "values/diagnostics.hpp"

namespace kplay {

// Handles CRLF logs; ignores the summary lines.
std::vector<Diagnostic> parse_nvrtc_log(std::string_view log);

}  // namespace kplay
