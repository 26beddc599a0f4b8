// Compiler errors and warnings: line:col, message, the source line with a caret. A click copies
// path:line:col and opens $VISUAL/$EDITOR at the line.
#include <imgui.h>

#include "editor_launcher.hpp"
#include "panels.hpp"

namespace kplay::window {

void draw_diagnostics_panel(AppState& state) {
    const auto& last = state.session.last();
    if (!last || last->compile.diagnostics.empty()) {
        ImGui::TextDisabled(last && last->compile.ok ? "No warnings." : "No diagnostics.");
        if (last && !last->compile.failure.empty()) ImGui::TextWrapped("%s", last->compile.failure.c_str());
        return;
    }
    int index = 0;
    for (const auto& d : last->compile.diagnostics) {
        ImGui::PushID(index++);
        const ImVec4 colour = d.severity == Severity::error ? ImVec4(0.95f, 0.4f, 0.4f, 1) : ImVec4(0.95f, 0.8f, 0.35f, 1);
        const std::string location = std::to_string(d.line) + ":" + std::to_string(d.column);
        ImGui::PushStyleColor(ImGuiCol_Text, colour);
        const bool clicked = ImGui::Selectable((location + "  " + severity_name(d.severity)).c_str(), false);
        ImGui::PopStyleColor();
        ImGui::SameLine();
        ImGui::TextWrapped("%s", d.message.c_str());
        if (clicked) {
            const std::string where = (d.file.empty() ? state.session.file().string() : d.file) + ":" + location;
            ImGui::SetClipboardText(where.c_str());
            const std::string opened = open_in_editor(d.file.empty() ? state.session.file().string() : d.file, d.line);
            state.say("Copied " + where + (opened.empty() ? "" : ". " + opened));
        }
        if (!d.source_line.empty()) {
            std::string caret(d.column > 0 ? d.column - 1 : 0, ' ');
            for (size_t i = 0; i < caret.size() && i < d.source_line.size(); ++i)
                if (d.source_line[i] == '\t') caret[i] = '\t';
            std::string source = d.source_line;
            for (auto* text : {&source, &caret}) {
                std::string expanded;
                for (char c : *text) expanded += c == '\t' ? std::string("    ") : std::string(1, c);
                *text = expanded;
            }
            ImGui::TextDisabled("    %s", source.c_str());
            ImGui::TextColored(colour, "    %s^", caret.c_str());
        }
        if (!d.context.empty()) ImGui::TextDisabled("    %s", d.context.c_str());
        ImGui::PopID();
    }
}

}  // namespace kplay::window
