// Kernel median per run (the last 200), or its registers or spills (ptxas, from the Inside tab's
// compile of each run), each tied to its source hash and time; pick two runs to compare.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "panels.hpp"

namespace kplay::window {

void draw_history_panel(AppState& state) {
    const auto& history = state.session.history();
    if (history.empty()) {
        ImGui::TextDisabled("Runs appear here: kernel median per run.");
        return;
    }
    if (history.size() == 1) {
        ImGui::Text("1 run so far: median %.4f ms. Save again to see the trend.", history.front().median_ms);
        return;
    }
    std::vector<float> medians;
    for (const auto& h : history)
        medians.push_back(state.history_metric == 1 ? static_cast<float>(std::max(0, h.registers))
                          : state.history_metric == 2 ? static_cast<float>(std::max(0, h.spill_bytes))
                                                      : static_cast<float>(h.median_ms));
    char overlay[64];
    if (state.history_metric == 0) std::snprintf(overlay, sizeof overlay, "last %.4f ms", medians.back());
    else std::snprintf(overlay, sizeof overlay, "last %.0f %s", medians.back(), state.history_metric == 1 ? "registers" : "B spilled");
    // ImGui 1.86's plots take no negative width ("to the edge"): a width of -1 drew nothing at all, so
    // the plot is given the panel's width itself.
    const ImVec2 size(std::max(64.0f, ImGui::GetContentRegionAvail().x), ImGui::GetFontSize() * 5);
    ImGui::PlotLines("##history", medians.data(), static_cast<int>(medians.size()), 0, overlay, 0.0f, FLT_MAX, size);
    state.history_plot_rect = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x, ImGui::GetItemRectSize().y};
    state.history_plot_points = static_cast<int>(medians.size());
    state.history_hovered_run = -1;
    if (ImGui::IsItemHovered() && medians.size() > 1) {
        const float x = (ImGui::GetMousePos().x - ImGui::GetItemRectMin().x) / ImGui::GetItemRectSize().x;
        const int i = std::clamp(static_cast<int>(x * static_cast<float>(medians.size() - 1) + 0.5f), 0, static_cast<int>(medians.size()) - 1);
        const auto& h = history[i];
        state.history_hovered_run = h.run;
        const std::string resources = h.registers >= 0 ? std::to_string(h.registers) + " registers, " + std::to_string(h.spill_bytes) + " B spilled"
                                                       : "resources not known";
        ImGui::SetTooltip("run %d at %s (source %s)\n%s\nmedian %.4f ms, %.1f GB/s%s\n%s\n%s", h.run, h.time_of_day.c_str(),
                          h.source_hash.c_str(), h.launch.c_str(), h.median_ms, h.gbps,
                          h.gflops > 0 ? (", " + std::to_string(static_cast<int>(h.gflops)) + " GFLOP/s").c_str() : "",
                          resources.c_str(), h.passed ? "PASS" : "FAIL");
    }
    // What the plot shows: the time, or what ptxas said of the kernel (unknown runs plot as 0).
    const char* metrics[] = {"median time", "registers", "spill bytes"};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    ImGui::Combo("##history_metric", &state.history_metric, metrics, 3);
    ImGui::SameLine();
    const int n = static_cast<int>(history.size());
    if (state.compare_a < 0 || state.compare_a >= n) state.compare_a = std::max(0, n - 2);
    if (state.compare_b < 0 || state.compare_b >= n) state.compare_b = n - 1;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt("run A", &state.compare_a, 0, n - 1, "%d");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt("run B", &state.compare_b, 0, n - 1, "%d");
    const auto& a = history[state.compare_a];
    const auto& b = history[state.compare_b];
    if (ImGui::BeginTable("compare", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("A");
        ImGui::TableSetupColumn("B");
        ImGui::TableSetupColumn("B/A");
        ImGui::TableHeadersRow();
        auto line = [](const char* name, double va, double vb, const char* format) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", name);
            ImGui::TableNextColumn();
            ImGui::Text(format, va);
            ImGui::TableNextColumn();
            ImGui::Text(format, vb);
            ImGui::TableNextColumn();
            if (va > 0) ImGui::Text("%.2fx", vb / va);
        };
        line("median ms", a.median_ms, b.median_ms, "%.4f");
        line("GB/s", a.gbps, b.gbps, "%.1f");
        if (a.unit == RateUnit::flops || b.unit == RateUnit::flops) line("GFLOP/s", a.gflops, b.gflops, "%.0f");
        line("compile ms", a.compile_ms, b.compile_ms, "%.1f");
        if (a.registers >= 0 && b.registers >= 0) {
            line("registers", a.registers, b.registers, "%.0f");
            line("spill bytes", a.spill_bytes, b.spill_bytes, "%.0f");
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("A: %s %s   B: %s %s", a.source_hash.c_str(), a.time_of_day.c_str(), b.source_hash.c_str(),
                        b.time_of_day.c_str());
}

}  // namespace kplay::window
