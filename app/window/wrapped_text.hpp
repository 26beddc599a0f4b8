// Inline messages that wrap at their panel's right edge instead of running past it (a launch error
// names limits and values and is often longer than the panel is wide). Each call also records how far
// any text reached past the edge, so the state dump (and a test) can say nothing was clipped.
#pragma once

#include <imgui.h>

namespace kplay::window {

// printf-style, wrapped at the content region's right edge.
void wrapped_colored(const ImVec4& color, const char* format, ...) IM_FMTARGS(2);
void wrapped_disabled(const char* format, ...) IM_FMTARGS(1);

// The most any wrapped message of this frame reached past its panel's edge, in pixels (0: none).
float wrapped_overflow_px();
void reset_wrapped_overflow();

}  // namespace kplay::window
