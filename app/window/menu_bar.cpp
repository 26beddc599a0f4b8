// Menus and keyboard shortcuts (listed under Help).
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdio>
#include <filesystem>

#include "panels.hpp"

namespace kplay::window {

namespace {
const char* const kShortcuts[][2] = {
    {"Ctrl+R", "Recompile and run the kernel"},
    {"F5", "Run again (also after a hang)"},
    {"Ctrl+S", "Save the output as PNG"},
    {"Ctrl+O", "Focus the kernel path box"},
    {"F", "Fit the images to their views"},
    {"1", "Show images at 1:1"},
    {"Mouse wheel", "Zoom the images at the cursor"},
    {"Drag", "Pan the images (all views move together)"},
    {"Ctrl+Q", "Quit"},
};

// A downsampled view is saved at its full resolution: asked of the worker first, saved when it comes
// (save_when_whole, looked at every frame).
void save_output(AppState& state) {
    const auto& shown = state.session.shown();
    if (shown && shown->view.step > 1) {
        state.session.look_closely();
        state.save_when_whole = true;
        state.say("Reading the output at full resolution to save it...", 10);
        return;
    }
    state.save_when_whole = false;
    state.say(save_output_png(state.session, state.output_dir), 10);
}

void finish_waiting_save(AppState& state) {
    if (!state.save_when_whole) return;
    KernelSession& session = state.session;
    if (!session.shown()) {
        state.save_when_whole = false;
    } else if (session.shown()->view.step <= 1) {
        save_output(state);
    } else if (!session.fetching_full_view() && !session.full_view_problem().empty()) {
        state.save_when_whole = false;
        state.say("Not saved: " + session.full_view_problem(), 10);
    } else {
        session.look_closely();  // a newer result took the screen meanwhile: its full resolution
    }
}
}  // namespace

void draw_menu_bar(AppState& state, const std::vector<KeyPress>& presses) {
    finish_waiting_save(state);
    const bool typing = ImGui::GetIO().WantTextInput;
    for (const KeyPress& press : presses) {
        const bool ctrl = (press.mods & GLFW_MOD_CONTROL) != 0;
        if (ctrl && press.key == GLFW_KEY_R) state.session.recompile();
        else if (press.key == GLFW_KEY_F5) state.session.rerun();
        else if (ctrl && press.key == GLFW_KEY_S) save_output(state);
        else if (ctrl && press.key == GLFW_KEY_Q) state.quit_requested = true;
        else if (ctrl && press.key == GLFW_KEY_O) state.focus_path_box = true;
        else if (!typing && !ctrl && press.key == GLFW_KEY_F) state.view.fit_requested = true;
        else if (!typing && !ctrl && press.key == GLFW_KEY_1) state.view.scale = 1;
    }

    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Save output PNG", "Ctrl+S")) save_output(state);
        // Where it goes, in full, and a box to change it (kept in the settings).
        std::error_code error;
        const std::string shown_dir = state.output_dir.empty() ? std::filesystem::current_path(error).string() : state.output_dir;
        ImGui::TextDisabled("saves to %s", shown_dir.c_str());
        std::string edited = shown_dir;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
        if (ImGui::InputText("output folder", &edited, ImGuiInputTextFlags_EnterReturnsTrue)) state.output_dir = edited;
        if (ImGui::MenuItem("Export history as CSV")) state.say(export_history(state.session, "kplay-history.csv"));
        if (ImGui::MenuItem("Export history as JSON")) state.say(export_history(state.session, "kplay-history.json"));
        if (ImGui::MenuItem("Copy as PyTorch", nullptr, false, state.session.spec().has_value())) state.say(copy_as_pytorch(state.session), 10);
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.quit_requested = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Run")) {
        if (ImGui::MenuItem("Recompile", "Ctrl+R")) state.session.recompile();
        if (ImGui::MenuItem("Run again", "F5")) state.session.rerun();
        ImGui::Separator();
        if (ImGui::MenuItem("Find the line of the GPU fault", nullptr, false, state.session.can_find_fault_line())) {
            state.session.find_fault_line();
            state.requested_tab = 1;
        }
        ImGui::MenuItem("Find the line of each GPU fault at once", nullptr, &state.session.find_fault_automatically);
        if (ImGui::MenuItem("Profile with Nsight Compute", nullptr, false, state.session.can_profile())) state.session.profile_last_run();
        ImGui::Separator();
        if (ImGui::MenuItem("Restart the worker")) {
            state.session.client().reset_crash_loop();
            state.session.rerun();
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Fit images", "F")) state.view.fit_requested = true;
        if (ImGui::MenuItem("Images 1:1", "1")) state.view.scale = 1;
        if (ImGui::MenuItem("Reload shaders")) {
            state.views.load_shaders();
            state.say(state.views.shader_error().empty() ? "Shaders reloaded" : "Shader error: " + state.views.shader_error());
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Device")) {
        const DeviceQuery& devices = state.session.devices();
        if (devices.devices.empty())
            ImGui::TextDisabled("%s", state.session.devices_known() ? devices.problem().c_str() : "asking the worker...");
        // With --remote every device is the host's: each says so.
        const std::string host = state.session.client().remote() ? state.session.client().remote_status().label + ": " : "";
        if (!host.empty()) ImGui::TextDisabled("on %s over ssh (or --remote-command)", state.session.client().remote_status().label.c_str());
        for (const auto& device : devices.devices) {
            char label[320];
            std::snprintf(label, sizeof label, "%s[%d] %s  sm_%d%d  %d SMs  %.0f GiB", host.c_str(), device.ordinal, device.name.c_str(),
                          device.cc_major, device.cc_minor, device.sm_count, device.total_memory / 1073741824.0);
            if (ImGui::MenuItem(label, nullptr, !state.session.emulating() && state.session.inputs.device == device.ordinal)) {
                state.session.inputs.device = device.ordinal;
                state.session.apply_settings();
            }
        }
        // The emulated CPU device: always there; the only choice without a GPU.
        KernelSession& session = state.session;
        if (ImGui::MenuItem((host + "Emulated CPU (threads as fibers; bounds-checked, printf)").c_str(), nullptr, session.emulating())) {
            session.inputs.device = kEmulatedDevice;
            session.apply_settings();
        }
        if (session.emulating()) {
            ImGui::Indent();
            ImGui::TextDisabled("thread order (a missing __syncthreads shows as a change):");
            for (const ThreadOrder order : {ThreadOrder::forward, ThreadOrder::reverse, ThreadOrder::random}) {
                if (ImGui::MenuItem(thread_order_name(order), nullptr, session.inputs.thread_order == order)) {
                    session.inputs.thread_order = order;
                    session.apply_settings();
                }
            }
            if (session.inputs.thread_order == ThreadOrder::random && ImGui::MenuItem("another random order")) {
                ++session.inputs.order_seed;
                session.apply_settings();
            }
            if (ImGui::MenuItem("track races (one worker thread)", nullptr, session.inputs.track && !session.inputs.thorough, !session.inputs.thorough)) {
                session.inputs.track = !session.inputs.track;
                session.apply_settings();
            }
            if (ImGui::MenuItem("thorough: AddressSanitizer + UBSan (one worker thread)", nullptr, session.inputs.thorough)) {
                session.inputs.thorough = !session.inputs.thorough;
                session.apply_settings();
            }
            ImGui::Unindent();
        }
        const auto& last = session.last();
        if (last && last->ceiling.gbps > 0) ImGui::TextDisabled("measured %s: %.0f GB/s", last->ceiling.name.c_str(), last->ceiling.gbps);
        ImGui::Separator();
        draw_pool_menu(state);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard shortcuts")) state.show_shortcuts = true;
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();

    if (state.show_shortcuts) {
        ImGui::SetNextWindowSize(ImVec2(520 * state.content_scale, 0), ImGuiCond_Appearing);
        if (ImGui::Begin("Keyboard shortcuts", &state.show_shortcuts, ImGuiWindowFlags_NoCollapse)) {
            if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg)) {
                for (const auto& row : kShortcuts) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(row[0]);
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(row[1]);
                }
                ImGui::EndTable();
            }
            ImGui::TextWrapped("Edit the kernel file in your own editor: every save recompiles and runs it.");
        }
        ImGui::End();
    }
}

}  // namespace kplay::window
