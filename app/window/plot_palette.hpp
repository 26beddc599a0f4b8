// The colours the plots share (the series and bars views), on the window's dark style: the output in
// blue, the reference in orange, a failure in red, an element never written in magenta.
#pragma once

#include <imgui.h>

namespace kplay::window::palette {

constexpr ImU32 kOutput = IM_COL32(110, 180, 255, 255);
constexpr ImU32 kReferenceMarker = IM_COL32(235, 160, 55, 255);
constexpr ImU32 kFail = IM_COL32(242, 89, 89, 255);
constexpr ImU32 kUnwritten = IM_COL32(230, 70, 230, 255);
constexpr ImU32 kPlotBackground = IM_COL32(30, 30, 32, 255);
constexpr ImU32 kBorder = IM_COL32(80, 80, 80, 255);
constexpr ImU32 kGrid = IM_COL32(52, 52, 58, 255);
constexpr ImU32 kAxisText = IM_COL32(160, 160, 165, 255);
const ImVec4 kFailText(0.95f, 0.35f, 0.35f, 1);
const ImVec4 kUnwrittenText(0.9f, 0.3f, 0.9f, 1);

}  // namespace kplay::window::palette
