// The view of a 1D output: the kernel's values against the reference over the element index, with
// each element's |error| / allowed below on a log scale, so a wrong stretch, one stray element or a
// gap nobody wrote can be found at any length. Zoom and pan feel like the image views'.
#pragma once

#include <imgui.h>

#include <cstdint>

#include "series_model.hpp"
#include "values/output_view.hpp"

namespace kplay::window {

// Where the view drew its plots this frame, for what is drawn over them (the writer overlay).
struct SeriesPlotArea {
    float x0 = 0, width = 0;      // the plots' columns
    float top_y0 = 0, err_y1 = 0;  // from the values plot's top to the error plot's bottom
    double first = 0, last = 0;   // the elements [first, last) across the width
    bool valid() const { return width > 0 && last > first; }
};

// Draws, at the cursor, a view of `series` of `size` pixels: on top, the output and the reference
// against the element index; below, |error| / allowed per index on a log scale with the pass line at 1.
// When more elements than pixels are visible, each pixel column shows the min..max envelope of the
// elements it covers. The wheel zooms the index axis at the cursor, dragging pans, double-click fits
// (the caller fits on F by setting last = first); hovering shows the values under the cursor.
// `first_bad` (an element index, -1: none) is marked with a line and a label; elements never written
// are ticked in magenta on the index axis. The work per frame grows with the entries shown, never
// allocates per element, and stays a few milliseconds at Series::kMaxSeriesEntries.
SeriesPlotArea draw_series_view(const Series& series, SeriesViewState& state, ImVec2 size, int64_t first_bad,
                      const char* buffer_name);

}  // namespace kplay::window
