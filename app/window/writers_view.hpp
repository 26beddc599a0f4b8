// "Who wrote each pixel" in the output views: the button that asks the session for the writer map, the
// overlay choice and its legend, the overlay texture drawn over the output, difference and matrix views
// (with the views' zoom and pan), and the hover line that names an element's writer.
#pragma once

#include <imgui.h>

#include <string>

#include "gl_resources.hpp"
#include "image_views.hpp"
#include "series_view.hpp"
#include "writer_overlay.hpp"

namespace kplay {
class KernelSession;
}

namespace kplay::window {

struct WritersUiState {
    TilingOverlay mode = TilingOverlay::blocks;
    GlTexture texture;  // the overlay of the map drawn_for, in drawn_mode
    int drawn_for = -1;
    TilingOverlay drawn_mode = TilingOverlay::off;
    ViewElements layout;
    OverlayCounts counts;
    WriterChunks chunks;                 // for the series view's columns
    double series_px_per_element = 0;    // the series view's last frame, for the zoom hint
    int series_bands = 0;                // the bands it drew over the series (also in the state dump)
    std::string hover_line;  // the writer of the element under the cursor (also in the state dump)
    int test_hover_x = -1, test_hover_y = -1;  // --test-hover: a view pixel taken as hovered
};

// The controls, on the row of the zoom buttons; `matrix`: the words say element rather than pixel;
// `view_scale`: the image views' zoom (screen pixels per view pixel), below which blocks are too small to
// draw (a series view's zoom is its own, kept from its last frame).
void draw_writer_controls(KernelSession& session, WritersUiState& ui, bool matrix, float view_scale);
// Over a view drawn at `origin` x `size` with `transform`; nothing while there is no map or overlay.
void draw_writer_overlay(KernelSession& session, WritersUiState& ui, ImVec2 origin, ImVec2 size, const ViewTransform& transform);
// Over a series view's plots, a band per run of pixel columns alike (or a line where the block changes).
void draw_writer_series_overlay(KernelSession& session, WritersUiState& ui, const SeriesPlotArea& area);
// The hover line for image pixel (x, y) (a map's cell in a matrix view), kept in ui.hover_line; empty
// without a map.
const std::string& writer_hover_line(const KernelSession& session, WritersUiState& ui, int x, int y);
// The same for a series' element.
const std::string& writer_hover_line(const KernelSession& session, WritersUiState& ui, int64_t element);

}  // namespace kplay::window
