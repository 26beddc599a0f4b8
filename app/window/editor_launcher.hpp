// Jumping from a diagnostic to the editor: copy path:line:col, and open $VISUAL/$EDITOR at the line.
#pragma once

#include <string>

namespace kplay::window {

// Starts `$VISUAL +LINE PATH` (or $EDITOR) detached; returns what happened, for the status line.
std::string open_in_editor(const std::string& path, int line);

}  // namespace kplay::window
