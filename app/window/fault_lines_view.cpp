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
    // The sanitizer's other tools, on any GPU run that launched: a race often passes on a GPU.
    static constexpr std::pair<SanitizerTool, const char*> kTools[] = {{SanitizerTool::racecheck, "Find races (racecheck)"},
                                                                       {SanitizerTool::synccheck, "Check barriers (synccheck)"},
                                                                       {SanitizerTool::initcheck, "Find uninitialized reads (initcheck)"}};
    bool first = true;
    for (const auto& [tool, label] : kTools) {
        if (!session.can_check_with(tool)) continue;
        if (!first) ImGui::SameLine();
        first = false;
        if (ImGui::SmallButton(label)) {
            session.check_with(tool);
            state.requested_tab = 1;
        }
    }
    if (!first) {
        ImGui::SameLine();
        ImGui::TextDisabled("compute-sanitizer on this launch, passing or not");
    }
    if (session.finding_fault_line()) ImGui::TextDisabled("Looking for the line...");
    for (const auto& location : session.fault_locations()) {
        const std::string finder = location.finder == FaultFinder::compute_sanitizer
                                       ? std::string(name_of(location.finder)) + " " + std::string(name_of(location.tool))
                                       : std::string(name_of(location.finder));
        if (!location.found) {
            wrapped_colored(ImVec4(0.6f, 0.6f, 0.6f, 1), "%s: %s", finder.c_str(), location.problem.c_str());
            continue;
        }
        wrapped_colored(ImVec4(1.0f, 0.5f, 0.45f, 1), "Line %d (%s, %.1f s): %s", location.line, finder.c_str(), location.seconds,
                        location.message.c_str());
        if (location.other_line > 0)
            wrapped_colored(ImVec4(1.0f, 0.7f, 0.45f, 1), "  and line %d, the other access of the race", location.other_line);
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
