// The view of a 1D output drawn as bars (view=bars: a histogram's bins): for each entry, the kernel's
// bar with the reference's height marked across it, so a bin that is off stands out in red at once
// and hovering names its count against the reference's.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "values/output_view.hpp"

namespace kplay::window {

// Draws the bars of `series` at the cursor in `size` pixels; `first_bad` (an element index, -1: none)
// is marked. Returns the entry under the mouse, or -1. Long series are drawn as their envelopes (one
// bar per pixel column at most), so the cost of a frame does not grow with the buffer.
int draw_bars_view(const Series& series, ImVec2 size, int64_t first_bad, const char* buffer_name);

}  // namespace kplay::window
