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

// About how many view pixels a block's tile spans across: its elements over those a view pixel holds, as a square.
float block_pixels(const KernelSession& session, const WritersUiState& ui) {
    const WriterMap* map = session.writer_map();
    const double per_pixel = static_cast<double>(ui.layout.row_step * ui.layout.col_step);
    return map ? static_cast<float>(std::sqrt(static_cast<double>(map->block.volume()) / std::max(1.0, per_pixel))) : 0.0f;
}

// The layout, counts and texture of the map on screen, made again only when the map or the mode changes.
void refresh(const KernelSession& session, WritersUiState& ui) {
    const WriterMap* map = session.writer_map();
    if (!map || !session.shown()) return;
    const int version = session.output_version();
    if (ui.drawn_for != version) {
        ui.layout = view_elements(session.shown()->view);
        ui.counts = overlay_counts(*map);
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
    if (!session.showing_writers() || !session.writer_map() || ui.mode == TilingOverlay::off || !ui.texture ||
        ui.drawn_for != session.output_version())
        return;
    // A block drawn a few screen pixels wide is noise, not tiling: the overlay fades out as the view zooms out.
    const float fade = std::clamp((block_pixels(session, ui) * transform.scale - 3.0f) / 5.0f, 0.0f, 1.0f);
    if (fade <= 0) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
    const ImVec2 from(origin.x + transform.offset_x, origin.y + transform.offset_y);
    const ImVec2 to(from.x + transform.scale * static_cast<float>(ui.layout.width), from.y + transform.scale * static_cast<float>(ui.layout.height));
    draw->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(ui.texture.id())), from, to, ImVec2(0, 0), ImVec2(1, 1),
                   IM_COL32(255, 255, 255, static_cast<int>(255 * fade)));
    draw->PopClipRect();
}

const std::string& writer_hover_line(const KernelSession& session, WritersUiState& ui, int x, int y) {
    ui.hover_line.clear();
    if (const WriterMap* map = session.writer_map(); map && session.showing_writers() && ui.drawn_for == session.output_version())
        ui.hover_line = writer_line(*map, ui.layout, x, y);
    return ui.hover_line;
}

}  // namespace kplay::window
