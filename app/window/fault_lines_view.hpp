// After a GPU fault: the Find the line button and what each finder said, shared by Results and the
// Inside tab.
#pragma once

#include "app_state.hpp"

namespace kplay::window {

// `editor_links`: each line found gets a button that opens it in the editor.
void draw_fault_lines(AppState& state, bool editor_links);

}  // namespace kplay::window
