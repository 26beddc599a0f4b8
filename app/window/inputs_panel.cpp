// Inputs: the image for grayscale (built-in, a path, or a dropped file); M, N, K for matmul with
// presets; how many warm-ups and timed repeats.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "panels.hpp"

namespace kplay::window {

void draw_inputs_panel(AppState& state) {
    KernelSession& session = state.session;
    InputSettings& inputs = session.inputs;
    const bool matmul = session.spec() && session.spec()->task == "matmul";
    bool apply = false;
    if (!matmul) {
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Built-in").x - ImGui::GetStyle().FramePadding.x * 4 - ImGui::GetStyle().ItemSpacing.x);
        if (ImGui::InputTextWithHint("##image", "image.png / .jpg (empty: built-in image)", &state.image_box,
                                     ImGuiInputTextFlags_EnterReturnsTrue)) {
            inputs.image_path = state.image_box;
            state.view.fit_requested = true;
            apply = true;
        }
        ImGui::SameLine();
        if (ImGui::Button("Built-in")) {
            state.image_box.clear();
            inputs.image_path.clear();
            state.view.fit_requested = true;
            apply = true;
        }
        if (session.shown()) ImGui::TextDisabled("%s", session.shown()->input_description.c_str());
    } else {
        int mnk[3] = {static_cast<int>(inputs.m), static_cast<int>(inputs.n), static_cast<int>(inputs.k)};
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        if (ImGui::InputInt3("M, N, K", mnk)) {
            inputs.m = std::max(1, mnk[0]);
            inputs.n = std::max(1, mnk[1]);
            inputs.k = std::max(1, mnk[2]);
        }
        if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
        ImGui::TextDisabled("presets");
        for (int preset : {256, 512, 1024, 2048, 4096}) {
            ImGui::SameLine();
            if (ImGui::SmallButton(std::to_string(preset).c_str())) {
                inputs.m = inputs.n = inputs.k = preset;
                apply = true;
            }
        }
        ImGui::SameLine();
        if (ImGui::SmallButton("1000x999x1001")) {
            inputs.m = 1000;
            inputs.n = 999;
            inputs.k = 1001;
            apply = true;
        }
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("warm-up", &inputs.warmup, 0);
    if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("repeats", &inputs.repeat, 0);
    if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
    inputs.warmup = std::clamp(inputs.warmup, 0, 1000);
    inputs.repeat = std::clamp(inputs.repeat, 1, 10000);
    if (apply) session.apply_settings();
}

}  // namespace kplay::window
