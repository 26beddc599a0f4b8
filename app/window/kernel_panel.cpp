// Choosing the kernel: a picker over kernels_src grouped by task, and a path box (drag-and-drop and the
// command line also open files).
#include <imgui.h>
#include <imgui_stdlib.h>

#include "panels.hpp"

namespace kplay::window {

void draw_kernel_panel(AppState& state) {
    KernelSession& session = state.session;
    const std::string current = session.file().filename().string();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##picker", current.empty() ? "Choose a kernel..." : current.c_str(), ImGuiComboFlags_HeightLarge)) {
        std::string group;
        for (const auto& entry : state.kernels) {
            if (entry.task != group) {
                group = entry.task;
                ImGui::TextDisabled("%s", group.c_str());
            }
            const std::string label = "  " + entry.path.filename().string();
            if (ImGui::Selectable(label.c_str(), entry.path == session.file())) {
                session.open(entry.path);
                state.path_box = entry.path.string();
                state.view.fit_requested = true;
            }
            if (!entry.summary.empty()) {
                ImGui::SameLine(ImGui::GetFontSize() * 15);
                ImGui::TextDisabled("%s", entry.summary.c_str());
            }
        }
        ImGui::EndCombo();
    }
    if (state.focus_path_box) {
        ImGui::SetKeyboardFocusHere();
        state.focus_path_box = false;
    }
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Open").x - ImGui::GetStyle().FramePadding.x * 2 - ImGui::GetStyle().ItemSpacing.x);
    const bool entered = ImGui::InputTextWithHint("##path", "path/to/kernel.cu (or drop a file on the window)", &state.path_box,
                                                  ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || entered) && !state.path_box.empty()) {
        session.open(state.path_box);
        state.view.fit_requested = true;
    }
    if (!session.file_error().empty()) ImGui::TextColored(ImVec4(0.95f, 0.35f, 0.35f, 1), "%s", session.file_error().c_str());
    if (!session.spec_error().empty()) ImGui::TextWrapped("%s", session.spec_error().c_str());
}

}  // namespace kplay::window
