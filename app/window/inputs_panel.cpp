// Inputs: the task's sizes by name (with its test and bench sizes as presets), the image for tasks
// that take one (built-in, a path, or a dropped file), the seed, and how many warm-ups and timed
// repeats. What is shown comes from the task, never from its name.
#include <imgui.h>

#include <algorithm>
#include <imgui_stdlib.h>

#include "base/text.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

void draw_image_box(AppState& state, bool& apply) {
    KernelSession& session = state.session;
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("Built-in").x - ImGui::GetStyle().FramePadding.x * 4 - ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::InputTextWithHint("##image", "image.png / .jpg (empty: built-in image)", &state.image_box, ImGuiInputTextFlags_EnterReturnsTrue)) {
        session.inputs.image_path = state.image_box;
        session.reset_sizes();  // an image file gives the sizes
        state.view.fit_requested = true;
        apply = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Built-in")) {
        state.image_box.clear();
        session.inputs.image_path.clear();
        state.view.fit_requested = true;
        apply = true;
    }
}

// One field per size name, then presets: the task's default, its test sizes and its bench size.
void draw_sizes(AppState& state, const TaskSpec& task, bool& apply) {
    KernelSession& session = state.session;
    const NamedValues sizes = session.current_sizes();
    const float field = ImGui::GetFontSize() * 5.5f;
    for (size_t i = 0; i < task.sizes.names.size(); ++i) {
        const std::string& name = task.sizes.names[i];
        if (i > 0) ImGui::SameLine();
        int value = static_cast<int>(sizes.count(name) ? sizes.at(name) : 1);
        ImGui::SetNextItemWidth(field);
        if (ImGui::InputInt(name.c_str(), &value, 0)) session.set_size(name, value);
        if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
    }
    std::vector<std::vector<int64_t>> shown;  // each preset once, the first reason winning
    auto preset = [&](const std::vector<int64_t>& values, const char* tip) {
        if (values.size() != task.sizes.names.size() || std::find(shown.begin(), shown.end(), values) != shown.end()) return;
        shown.push_back(values);
        ImGui::SameLine();
        std::vector<std::string> parts;
        for (auto v : values) parts.push_back(std::to_string(v));
        if (ImGui::SmallButton(join(parts, "x").c_str())) {
            for (size_t i = 0; i < values.size(); ++i) session.set_size(task.sizes.names[i], values[i]);
            apply = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
    };
    ImGui::TextDisabled("presets");
    preset(session.emulating() ? task.sizes.cpu_default : task.sizes.gpu_default, "the task's default size");
    const auto& tests = session.emulating() && !task.sizes.cpu_test.empty() ? task.sizes.cpu_test : task.sizes.test;
    for (const auto& size : tests) preset(size, "a test size (every run checks it too)");
    const auto& bench = session.emulating() ? task.sizes.cpu_bench : task.sizes.gpu_bench;
    if (!bench.empty()) preset(bench.front(), "the bench size (kplay-cli bench)");
}

}  // namespace

void draw_inputs_panel(AppState& state) {
    KernelSession& session = state.session;
    InputSettings& inputs = session.inputs;
    bool apply = false;
    const TaskSpec* task = session.task();
    if (!task) {
        wrapped_disabled("The inputs follow from the task, once the file's task declaration reads without errors.");
    } else {
        ImGui::TextDisabled("task %s%s", task->name.c_str(), task->builtin ? " (built in)" : " (declared in the file)");
        if (task->has_image_input()) draw_image_box(state, apply);
        if (!task->sizes.names.empty()) draw_sizes(state, *task, apply);
        if (session.shown()) ImGui::TextDisabled("%s", session.shown()->input_description.c_str());
    }
    int seed = static_cast<int>(inputs.seed);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    if (ImGui::InputInt("seed", &seed, 0)) inputs.seed = static_cast<uint64_t>(std::max(1, seed));
    if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
    ImGui::SameLine();
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
