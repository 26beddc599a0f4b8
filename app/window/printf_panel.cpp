// The emulated device's kernel output: printf lines tagged with block and thread, filterable, and the
// run's warnings (threads meeting at different barriers). A GPU run has neither.
#include <imgui.h>

#include "panels.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

void draw_printf_panel(AppState& state) {
    const auto& last = state.session.last();
    if (!last || !last->emulated) {
        wrapped_disabled("printf output is shown for runs on the emulated CPU device (Device menu).");
        return;
    }
    for (const auto& warning : last->warnings) ImGui::TextColored(ImVec4(0.95f, 0.8f, 0.35f, 1), "warning: %s", warning.c_str());
    if (last->printf_lines.empty()) {
        ImGui::TextDisabled("The kernel printed nothing.");
        return;
    }
    char filter[64];
    std::snprintf(filter, sizeof filter, "%s", state.printf_filter.c_str());
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##printf_filter", "filter, e.g. block (3,0,0) or thread (0,", filter, sizeof filter))
        state.printf_filter = filter;
    size_t shown = 0;
    const float height = std::min(14.0f, static_cast<float>(last->printf_lines.size()) + 1) * ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::BeginChild("printf_lines", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar)) {
        for (const auto& line : last->printf_lines) {
            if (!state.printf_filter.empty() && line.find(state.printf_filter) == std::string::npos) continue;
            ImGui::TextUnformatted(line.c_str());
            ++shown;
        }
    }
    ImGui::EndChild();
    ImGui::TextDisabled("%zu of %zu lines%s", shown, last->printf_lines.size(),
                        last->printf_dropped ? (", " + std::to_string(last->printf_dropped) + " more dropped (cap)").c_str() : "");
}

}  // namespace kplay::window
