// The output views, chosen by the task's output kind: an image beside its input and its difference
// from the reference; a matrix's |C-R| heatmap; a 1D array against its reference (series_view); a
// scalar's value, reference and error. The image views share one zoom and pan: the wheel zooms at the
// cursor, dragging pans, F fits, 1 shows 1:1. Hovering shows the pixel's values.
#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "panels.hpp"
#include "wrapped_text.hpp"
#include "bars_view.hpp"
#include "series_view.hpp"
#include "writers_view.hpp"

namespace kplay::window {

namespace {

void fit(ViewTransform& view, float view_w, float view_h, int image_w, int image_h) {
    if (image_w <= 0 || image_h <= 0) return;
    view.scale = std::min(view_w / static_cast<float>(image_w), view_h / static_cast<float>(image_h));
    view.offset_x = 0.5f * (view_w - view.scale * static_cast<float>(image_w));
    view.offset_y = 0.5f * (view_h - view.scale * static_cast<float>(image_h));
    view.fit_requested = false;
}

// One view: the rendered texture under an invisible button that takes the zoom and pan gestures.
// Returns the hovered image pixel, or (-1, -1).
ImVec2 view_widget(AppState& state, ViewKind kind, const char* caption, ImVec2 size, float tolerance) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(caption);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(caption, size);
    state.view_rects[static_cast<int>(kind)] = {origin.x, origin.y, size.x, size.y};
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    if (!state.views.has(kind)) {
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(30, 30, 32, 255));
        draw->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(80, 80, 80, 255));
        const char* text = state.session.device_banner().empty() ? "no output" : "no output: no CUDA device";
        const ImVec2 text_size = ImGui::CalcTextSize(text);
        draw->AddText(ImVec2(origin.x + 0.5f * (size.x - text_size.x), origin.y + 0.5f * (size.y - text_size.y)),
                      IM_COL32(150, 150, 150, 255), text);
        ImGui::EndGroup();
        return ImVec2(-1, -1);
    }
    ImTextureID texture = state.views.render(kind, static_cast<int>(size.x), static_cast<int>(size.y), state.view, tolerance);
    ImGui::GetWindowDrawList()->AddImage(texture, origin, ImVec2(origin.x + size.x, origin.y + size.y), ImVec2(0, 1), ImVec2(1, 0));
    // The writer overlay: over the output (or a matrix's map); block edges over the difference too, where
    // a coloured block would hide what the difference says.
    if (kind == ViewKind::output || kind == ViewKind::error_map || (kind == ViewKind::difference && state.writers.mode == TilingOverlay::edges))
        draw_writer_overlay(state.session, state.writers, origin, size, state.view);
    ImGui::GetWindowDrawList()->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(80, 80, 80, 255));
    ImGui::EndGroup();

    ImGuiIO& io = ImGui::GetIO();
    ViewTransform& view = state.view;
    const ImVec2 local(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
    if (hovered && io.MouseWheel != 0) {
        const float factor = std::pow(1.2f, io.MouseWheel);
        const float scale = std::clamp(view.scale * factor, 0.02f, 64.0f);
        const float applied = scale / view.scale;
        view.offset_x = local.x - (local.x - view.offset_x) * applied;
        view.offset_y = local.y - (local.y - view.offset_y) * applied;
        view.scale = scale;
    }
    if (active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0)) {
        view.offset_x += io.MouseDelta.x;
        view.offset_y += io.MouseDelta.y;
    }
    if (!hovered) return ImVec2(-1, -1);
    return ImVec2(std::floor((local.x - view.offset_x) / view.scale), std::floor((local.y - view.offset_y) / view.scale));
}

}  // namespace

namespace {

const ImVec4 kRed(0.95f, 0.35f, 0.35f, 1), kGreen(0.4f, 0.85f, 0.45f, 1), kAmber(0.95f, 0.75f, 0.3f, 1), kWriter(0.7f, 0.85f, 1, 1);

const BufferCheck* check_of(const RunReport& report) {
    for (const auto& check : report.check.buffers)
        if (check.buffer == report.view.buffer) return &check;
    return nullptr;
}

void draw_scalar(AppState& state, const RunReport& report) {
    const BufferCheck* check = check_of(report);
    if (!check) {
        ImGui::TextDisabled("No check for '%s' in this run.", report.view.buffer.c_str());
        return;
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    state.scalar_rect = {origin.x, origin.y, avail.x, avail.y};
    ImGui::Dummy(ImVec2(0, ImGui::GetTextLineHeight()));
    ImGui::SetWindowFontScale(2.0f);
    // A race is the verdict whatever the number said (the run's check fails with it).
    const bool race = !report.races.empty();
    ImGui::TextColored(check->passed && !race ? kGreen : kRed, "%s", race ? "RACE" : check->passed ? "PASS" : "FAIL");
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PushTextWrapPos(0);
    if (race) {
        ImGui::TextColored(kRed, "%s", describe_race(report.races.front()).c_str());
        ImGui::TextDisabled("%s", race_advice(report.races.front()).c_str());
        ImGui::TextUnformatted((std::string(check->passed ? "The number came out right this time: " : "") + check->summary).c_str());
    } else {
        ImGui::TextUnformatted(check->summary.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::BeginTable("scalar", 2, ImGuiTableFlags_SizingFixedFit)) {
        auto row = [](const char* name, const std::string& value) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", name);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(value.c_str());
        };
        row(report.view.buffer.c_str(), report.view.value);
        row("reference", report.view.expected);
        char text[64];
        std::snprintf(text, sizeof text, "%.6g", check->max_abs_error);
        row("|error|", text);
        std::snprintf(text, sizeof text, "%.3g", check->max_error_ratio);
        row("|error| / allowed", text);
        row("rule", check->rule);
        ImGui::EndTable();
    }
}

// A difference in the output's units: whole bytes, or a float image's value (0.0039 is one step of 255).
std::string difference_text(float d, bool floats) {
    if (!floats) return std::to_string(static_cast<int>(d));
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", d);
    return text;
}

// The hovered output pixel as drawn: its bytes (gray, RGB or RGBA; a float image's values scaled to them).
std::string output_pixel_text(const std::vector<unsigned char>& out, size_t v, size_t channels, bool floats) {
    if (channels == 2 || channels * v + channels > out.size()) return "";
    std::string text = std::string("   output") + (floats ? " drawn" : "") + (channels == 4 ? " RGBA (" : channels == 3 ? " RGB (" : " ");
    for (size_t c = 0; c < channels; ++c) text += (c ? ", " : "") + std::to_string(out[channels * v + c]);
    return text + (channels > 1 ? ")" : "");
}

// The Debug tab, set to stop in an element's writer at the writing line.
void open_debug_tab(AppState& state, const DebugTarget& target) {
    state.debug.block = target.block;
    state.debug.thread = target.thread;
    state.debug.line = target.line;
    state.requested_tab = 3;
}

// The series with, when "Who wrote" is on, the blocks along its index and the hovered element's writer.
void draw_series(AppState& state, const RunReport& report) {
    KernelSession& session = state.session;
    const BufferCheck* check = check_of(report);
    const int64_t first_bad = check ? check->first_bad.index : -1;
    if (ImGui::Button("Fit")) state.series_view.last = state.series_view.first;
    draw_writer_controls(session, state.writers, true, 1.0f);
    const float footer = session.showing_writers() ? 2 * ImGui::GetTextLineHeightWithSpacing() : 0;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 size(avail.x, std::max(64.0f, avail.y - footer));
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    state.series_rect = {origin.x, origin.y, size.x, size.y};
    const SeriesPlotArea area = draw_series_view(report.view.series, state.series_view, size, first_bad, report.view.buffer.c_str());
    draw_writer_series_overlay(session, state.writers, area);
    if (!session.showing_writers()) return;
    // --test-hover's X stands in for the hovered element.
    const bool hovered_for_real = state.series_view.hovered >= 0;
    const int64_t element = state.writers.test_hover_x >= 0 ? state.writers.test_hover_x : state.series_view.hovered;
    if (const std::string& writer = writer_hover_line(session, state.writers, element); !writer.empty()) {
        wrapped_colored(kWriter, "%s  (right-click: debug this thread)", writer.c_str());
        DebugTarget target;
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) && hovered_for_real &&
            debug_target(session.writer_map()->writer(static_cast<uint64_t>(element)), target))
            open_debug_tab(state, target);
    } else if (session.writer_map()) {
        ImGui::TextDisabled("Hover an element to see the thread that wrote it.");
    }
}

// Bars (a histogram's bins), beside the image they were counted from when the task has one.
void draw_bars(AppState& state, const RunReport& report) {
    const BufferCheck* check = check_of(report);
    const int64_t first_bad = check ? check->first_bad.index : -1;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float caption = ImGui::GetTextLineHeightWithSpacing();
    ImVec2 bars_size = avail;
    if (state.views.has(ViewKind::input)) {
        const ImVec2 image_size(std::max(64.0f, 0.36f * avail.x), std::max(64.0f, avail.y - caption));
        if (state.view.fit_requested)
            fit(state.view, image_size.x, image_size.y, state.views.width(ViewKind::input), state.views.height(ViewKind::input));
        view_widget(state, ViewKind::input, "input", image_size, 0);
        ImGui::SameLine();
        bars_size.x = std::max(64.0f, avail.x - image_size.x - spacing);
    }
    ImGui::BeginGroup();
    ImGui::Text("%s against the reference", report.view.buffer.c_str());
    bars_size.y = std::max(64.0f, avail.y - caption);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    state.bars_rect = {origin.x, origin.y, bars_size.x, bars_size.y};
    state.bars_hovered = draw_bars_view(report.view.series, bars_size, first_bad, report.view.buffer.c_str());
    ImGui::EndGroup();
}

}  // namespace

void draw_images_panel(AppState& state) {
    KernelSession& session = state.session;
    if (session.shown() && state.uploaded_version != session.output_version()) {
        state.views.upload(*session.shown());
        state.uploaded_version = session.output_version();
        state.series_view = {};
    }
    if (!state.views.shader_error().empty())
        wrapped_colored(kRed, "Shader error (views show raw images): %s", state.views.shader_error().c_str());
    if (!session.shown()) {
        ImGui::TextDisabled(session.busy()                            ? "Running..."
                            : session.last() && !session.last()->ok() ? "No output yet: the run failed (see Results)."
                                                                      : "The output appears here after the first successful run.");
        return;
    }
    const RunReport& shown = *session.shown();
    const OutputKind kind = shown.view.kind;
    if (session.shown_is_stale()) wrapped_colored(kAmber, "STALE: these are the last good outputs, not the current file's");
    if (kind == OutputKind::scalar) return draw_scalar(state, shown);
    if (kind == OutputKind::series) return draw_series(state, shown);
    if (kind == OutputKind::bars) return draw_bars(state, shown);
    const bool matrix = kind == OutputKind::matrix;
    const int image_w = matrix ? state.views.width(ViewKind::error_map) : state.views.width(ViewKind::output);
    const int image_h = matrix ? state.views.height(ViewKind::error_map) : state.views.height(ViewKind::output);
    if (image_w == 0) {
        ImGui::TextDisabled("The output appears here after the first successful run.");
        return;
    }
    if (ImGui::Button("Fit")) state.view.fit_requested = true;
    ImGui::SameLine();
    if (ImGui::Button("1:1")) state.view.scale = 1;
    ImGui::SameLine();
    ImGui::Text("zoom %.0f%%", 100 * state.view.scale);
    draw_writer_controls(session, state.writers, matrix, state.view.scale);
    const float tolerance = static_cast<float>(shown.check.tolerance);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float caption = ImGui::GetTextLineHeightWithSpacing();
    // The inspector line, the writer's line when "Who wrote" is on, and the legend.
    const float footer = ImGui::GetTextLineHeightWithSpacing() * (session.showing_writers() ? 4.3f : 3.2f);
    const int columns = matrix ? 1 : 3;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const ImVec2 size(std::max(64.0f, (avail.x - spacing * static_cast<float>(columns - 1)) / static_cast<float>(columns)),
                      std::max(64.0f, avail.y - caption - footer));
    if (state.view.fit_requested) fit(state.view, size.x, size.y, image_w, image_h);

    ImVec2 hovered(-1, -1);
    if (matrix) {
        char caption_text[128];
        std::snprintf(caption_text, sizeof caption_text, "|%s - R| / allowed error (max-pooled to %dx%d), worst %.3g", shown.view.buffer.c_str(),
                      image_w, image_h, state.views.map_max());
        hovered = view_widget(state, ViewKind::error_map, caption_text, size, tolerance);
    } else {
        const ImVec2 a = view_widget(state, ViewKind::input, "input", size, tolerance);
        ImGui::SameLine();
        const ImVec2 b = view_widget(state, ViewKind::output, "output", size, tolerance);
        ImGui::SameLine();
        const ImVec2 c = view_widget(state, ViewKind::difference, "difference from the reference", size, tolerance);
        hovered = a.x >= 0 ? a : b.x >= 0 ? b : c;
        // Zoomed in past a downsampled view's own pixels: its full resolution is asked for.
        if (state.views.step() > 1 && state.view.scale * static_cast<float>(state.views.step()) > 1.0f) session.look_closely();
    }

    // Inspector line and legend. (--test-hover stands in for the cursor.)
    const bool hovered_for_real = hovered.x >= 0;
    if (state.writers.test_hover_x >= 0) hovered = ImVec2(static_cast<float>(state.writers.test_hover_x), static_cast<float>(state.writers.test_hover_y));
    const int x = static_cast<int>(hovered.x), y = static_cast<int>(hovered.y);
    if (x >= 0 && y >= 0 && x < image_w && y < image_h) {
        const size_t i = static_cast<size_t>(y) * image_w + x;
        // A downsampled view holds one value per step x step block: the line says the block's; zooming
        // in past the view's pixels brings each pixel's (the full resolution, asked of the worker).
        const int step = matrix ? 1 : state.views.step();
        const size_t v = static_cast<size_t>(y / step) * static_cast<size_t>((image_w + step - 1) / step) + static_cast<size_t>(x / step);
        if (matrix) {
            const float e = state.views.map_values()[i];
            ImGui::Text("cell (%d, %d): max |C-R| / allowed = %s", x, y, std::isnan(e) ? "NaN (unwritten)" : std::to_string(e).c_str());
        } else {
            const auto& in = state.views.input_planes();
            const size_t n = static_cast<size_t>(image_w) * image_h;
            const auto& out = state.views.output_pixels();
            const auto& map = state.views.map_values();
            const bool unwritten = v < map.size() && std::isnan(map[v]);
            const bool floats = state.views.float_output();
            std::string text = "x " + std::to_string(x) + "  y " + std::to_string(y);
            if (3 * n <= in.size())
                text += "   input RGB (" + std::to_string(in[i]) + ", " + std::to_string(in[n + i]) + ", " + std::to_string(in[2 * n + i]) + ")";
            if (step > 1) {
                // The block's values, said to be the block's, never read as this pixel's.
                const std::string block = std::to_string(step) + "x" + std::to_string(step);
                const size_t channels = static_cast<size_t>(std::max(1, state.views.output_channels()));
                if (channels == 1 && v < out.size()) text += "   its " + block + " block: mean output " + std::to_string(out[v]);
                else text += "   its " + block + " block";
                if (unwritten) text += ", a pixel never written";
                else if (v < map.size()) text += ", largest difference " + difference_text(map[v], floats);
                ImGui::TextUnformatted(text.c_str());
                const std::string& problem = session.full_view_problem();
                if (!problem.empty()) wrapped_disabled("%s", problem.c_str());
                else if (session.fetching_full_view()) ImGui::TextDisabled("reading the full resolution...");
            } else {
                const size_t channels = static_cast<size_t>(std::max(1, state.views.output_channels()));
                text += output_pixel_text(out, v, channels, floats);
                if (unwritten) text += "   never written";
                else if (channels == 1 && !floats && v < map.size() && v < out.size())
                    text += "   reference " + std::to_string(out[v] - static_cast<int>(map[v])) + "   difference " + std::to_string(static_cast<int>(map[v]));
                else if (v < map.size())
                    text += std::string(channels > 1 ? "   largest channel difference " : "   difference ") + difference_text(map[v], floats);
                ImGui::TextUnformatted(text.c_str());
            }
        }
        if (const std::string& writer = writer_hover_line(session, state.writers, x, y); !writer.empty()) {
            wrapped_colored(kWriter, "%s  (double-click: debug this thread)", writer.c_str());
            // A double-click on the pixel: the Debug tab, set to stop in its writer at the writing line.
            DebugTarget target;
            if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && hovered_for_real &&
                debug_target(session.writer_map()->writer(element_at(state.writers.layout, x / state.writers.layout.pixel_step, y / state.writers.layout.pixel_step)), target))
                open_debug_tab(state, target);
        }
    } else {
        ImGui::TextDisabled("Hover a pixel to inspect it. Wheel: zoom at the cursor. Drag: pan. F: fit. 1: 1:1.");
    }
    if (matrix)
        wrapped_disabled("green: within tolerance; red, yellow, white: 1x to 1000x over (log scale); magenta: NaN / never written");
    else if (state.views.has(ViewKind::difference))
        wrapped_disabled("difference: dark = exact, green = within +-%.3g, red = too bright, blue = too dark, magenta = never written", tolerance);
}

}  // namespace kplay::window
