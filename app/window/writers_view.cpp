// The writer map's controls, overlay and hover line in the output views.
#include "writers_view.hpp"

#include <algorithm>
#include <cmath>

#include "session/kernel_session.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

const ImVec4 kRed(0.95f, 0.35f, 0.35f, 1), kMagenta(0.9f, 0.16f, 0.9f, 1);

// Continues the row when `text` fits in what is left of it, else starts a new one.
void same_line_if_fits(const std::string& text) {
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine();
    if (ImGui::CalcTextSize(text.c_str()).x + spacing > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}

// About how many image pixels a block's tile spans across: its elements over those a view pixel holds, as
// a square, times the image pixels a view pixel spans; in a series view, the pixels its elements span
// along the index.
float block_pixels(const KernelSession& session, const WritersUiState& ui) {
    const WriterMap* map = session.writer_map();
    if (!map) return 0.0f;
    const double volume = static_cast<double>(map->block.volume());
    if (!ui.layout.valid()) return static_cast<float>(volume * ui.series_px_per_element);
    const double per_pixel = static_cast<double>(ui.layout.row_step * ui.layout.col_step);
    return static_cast<float>(std::sqrt(volume / std::max(1.0, per_pixel)) * ui.layout.pixel_step);
}

// The overlay's opacity: a block drawn a few screen pixels wide is noise, not tiling, so it fades out.
float fade_of(float block_screen_pixels) { return std::clamp((block_screen_pixels - 3.0f) / 5.0f, 0.0f, 1.0f); }

bool map_on_screen(const KernelSession& session, const WritersUiState& ui) {
    return session.showing_writers() && session.writer_map() && ui.drawn_for == session.output_version();
}

// The layout, counts and texture of the map on screen, made again only when the map or the mode changes.
void refresh(const KernelSession& session, WritersUiState& ui) {
    const WriterMap* map = session.writer_map();
    if (!map || !session.shown()) return;
    const int version = session.output_version();
    if (ui.drawn_for != version) {
        ui.layout = view_elements(session.shown()->view);
        ui.counts = overlay_counts(*map);
        ui.chunks = session.shown()->view.kind == OutputKind::series ? writer_chunks(*map) : WriterChunks{};
        ui.drawn_mode = TilingOverlay::off;
        ui.texture = GlTexture();
    }
    if (ui.drawn_for != version || ui.drawn_mode != ui.mode) {
        const std::vector<unsigned char> rgba = overlay_pixels(*map, ui.layout, ui.mode);
        if (!rgba.empty()) ui.texture.upload(ui.layout.width, ui.layout.height, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
        ui.drawn_mode = ui.mode;
        ui.drawn_for = version;
    }
}

}  // namespace

void draw_writer_controls(KernelSession& session, WritersUiState& ui, bool matrix, float view_scale) {
    ImGui::SameLine();
    const std::string refusal = session.writers_refusal();
    bool on = session.showing_writers();
    ImGui::BeginDisabled(!refusal.empty() && !on);
    if (ImGui::Checkbox(matrix ? "Who wrote each element" : "Who wrote each pixel", &on)) session.show_writers(on);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", refusal.empty() ? "Runs this launch once more on the emulated CPU device, recording the thread that "
                                                  "wrote each element: hover an element to see its thread, block, line and index."
                                                : refusal.c_str());
    if (!on) return;
    refresh(session, ui);
    if (session.mapping_writers()) {
        ImGui::SameLine();
        ImGui::TextDisabled("mapping on the emulated device...");
    }
    if (const WriterMap* map = session.writer_map()) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::CalcTextSize("block edges").x + 2 * ImGui::GetFrameHeight());
        int mode = static_cast<int>(ui.mode);
        if (ImGui::Combo("##tiling", &mode, "no overlay\0blocks\0block edges\0")) ui.mode = static_cast<TilingOverlay>(mode);
        if (ui.mode != TilingOverlay::off && block_pixels(session, ui) * view_scale < 3.0f) {
            same_line_if_fits("(zoom in to see the blocks)");
            ImGui::TextDisabled("(zoom in to see the blocks)");
        }
        const std::string blocks = std::to_string(ui.counts.blocks) + " blocks of " + std::to_string(map->block.volume()) + " threads (" + map->kernel + ")";
        same_line_if_fits(blocks);
        ImGui::TextDisabled("%s", blocks.c_str());
        if (ui.counts.unwritten > 0) {
            const std::string text = std::to_string(ui.counts.unwritten) + " never written";
            same_line_if_fits(text);
            ImGui::TextColored(kMagenta, "%s", text.c_str());
        }
        if (ui.counts.many > 0) {
            const std::string text = std::to_string(ui.counts.many) + " written by two threads or more";
            same_line_if_fits(text);
            ImGui::TextColored(kRed, "%s", text.c_str());
        }
    }
    if (const std::string problem = session.writers_problem(); !problem.empty()) wrapped_colored(kRed, "%s", problem.c_str());
}

void draw_writer_overlay(KernelSession& session, WritersUiState& ui, ImVec2 origin, ImVec2 size, const ViewTransform& transform) {
    if (!map_on_screen(session, ui) || ui.mode == TilingOverlay::off || !ui.texture) return;
    const float fade = fade_of(block_pixels(session, ui) * transform.scale);
    if (fade <= 0) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    const ImVec2 from(origin.x + transform.offset_x, origin.y + transform.offset_y);
    const float extent = transform.scale * static_cast<float>(ui.layout.pixel_step);  // a view pixel on screen
    const ImVec2 to(from.x + extent * static_cast<float>(ui.layout.width), from.y + extent * static_cast<float>(ui.layout.height));
    draw->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(ui.texture.id())), from, to, ImVec2(0, 0), ImVec2(1, 1),
                   IM_COL32(255, 255, 255, static_cast<int>(255 * fade)));
    draw->PopClipRect();
}

void draw_writer_series_overlay(KernelSession& session, WritersUiState& ui, const SeriesPlotArea& area) {
    if (!area.valid()) return;
    ui.series_px_per_element = area.width / (area.last - area.first);
    ui.series_bands = 0;
    if (!map_on_screen(session, ui) || ui.mode == TilingOverlay::off) return;
    const float fade = fade_of(block_pixels(session, ui));
    if (fade <= 0) return;
    const int columns = static_cast<int>(area.width);
    const std::vector<PixelWriters> writers = column_writers(*session.writer_map(), ui.chunks, area.first, area.last, columns);
    auto colour = [&](const PixelWriters& w, int k) -> ImU32 {
        unsigned char rgba[4] = {0, 0, 0, 0};
        if (w.unwritten) std::copy(kUnwrittenColour, kUnwrittenColour + 4, rgba);
        else if (w.many) std::copy(kManyColour, kManyColour + 4, rgba);
        else if (ui.mode == TilingOverlay::blocks) block_colour(w.block, rgba), rgba[3] = 60;  // the curves must stay readable
        else if (k > 0 && writers[static_cast<size_t>(k - 1)].block != w.block) std::copy(kEdgeColour, kEdgeColour + 4, rgba);
        return IM_COL32(rgba[0], rgba[1], rgba[2], static_cast<int>(rgba[3] * fade));
    };
    ImDrawList* draw = ImGui::GetWindowDrawList();
    // One rectangle per run of columns alike, from the values plot's top to the error plot's bottom.
    for (int k = 0; k < columns;) {
        const ImU32 c = colour(writers[static_cast<size_t>(k)], k);
        int end = k + 1;
        while (end < columns && colour(writers[static_cast<size_t>(end)], end) == c) ++end;
        if ((c >> IM_COL32_A_SHIFT) != 0) {
            draw->AddRectFilled(ImVec2(area.x0 + static_cast<float>(k), area.top_y0), ImVec2(area.x0 + static_cast<float>(end), area.err_y1), c);
            ++ui.series_bands;
        }
        k = end;
    }
}

const std::string& writer_hover_line(const KernelSession& session, WritersUiState& ui, int x, int y) {
    ui.hover_line.clear();
    const int step = ui.layout.pixel_step;
    if (map_on_screen(session, ui)) ui.hover_line = writer_line(*session.writer_map(), ui.layout, x / step, y / step);
    return ui.hover_line;
}

const std::string& writer_hover_line(const KernelSession& session, WritersUiState& ui, int64_t element) {
    ui.hover_line.clear();
    const WriterMap* map = session.writer_map();
    if (map_on_screen(session, ui) && element >= 0 && static_cast<uint64_t>(element) < map->cells.size())
        ui.hover_line = describe_writer(map->writer(static_cast<uint64_t>(element)));
    return ui.hover_line;
}

}  // namespace kplay::window
