// The finders run in the session; this shows their state and answers.
#include "fault_lines_view.hpp"

#include <imgui.h>

#include "editor_launcher.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

void draw_fault_lines(AppState& state, bool editor_links) {
    KernelSession& session = state.session;
    if (session.can_find_fault_line()) {
        if (ImGui::SmallButton("Find the line")) {
            session.find_fault_line();
            state.requested_tab = 1;  // the line is marked in the Inside tab's source
        }
        ImGui::SameLine();
        ImGui::TextDisabled("the same launch on the emulated device (and compute-sanitizer, where installed)");
    }
    if (session.finding_fault_line()) ImGui::TextDisabled("Looking for the line...");
    for (const auto& location : session.fault_locations()) {
        const std::string finder(name_of(location.finder));
        if (!location.found) {
            wrapped_colored(ImVec4(0.6f, 0.6f, 0.6f, 1), "%s: %s", finder.c_str(), location.problem.c_str());
            continue;
        }
        wrapped_colored(ImVec4(1.0f, 0.5f, 0.45f, 1), "Line %d (%s, %.1f s): %s", location.line, finder.c_str(), location.seconds,
                        location.message.c_str());
        if (!editor_links) continue;
        ImGui::PushID(finder.c_str());
        if (ImGui::SmallButton(("Open line " + std::to_string(location.line) + " in the editor").c_str())) {
            const std::string opened = open_in_editor(session.file().string(), location.line);
            state.say(opened.empty() ? "Opened line " + std::to_string(location.line) : opened);
        }
        ImGui::PopID();
    }
}

}  // namespace kplay::window
