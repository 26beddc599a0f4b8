// The line under the menu: which file, what is happening, how many errors, and the device banner.
#include <imgui.h>

#include <cmath>

#include "panels.hpp"

namespace kplay::window {

namespace {
const ImVec4 kRed(0.95f, 0.35f, 0.35f, 1), kGreen(0.4f, 0.85f, 0.45f, 1), kAmber(0.95f, 0.75f, 0.3f, 1), kGray(0.6f, 0.6f, 0.6f, 1);

const char* spinner() {
    static const char* frames[] = {"|", "/", "-", "\\"};
    return frames[static_cast<int>(ImGui::GetTime() * 8) % 4];
}
}  // namespace

void draw_status_bar(AppState& state) {
    const KernelSession& session = state.session;
    const std::string banner = session.device_banner();
    if (!banner.empty()) {
        ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.45f, 0.3f, 0.05f, 1));
        ImGui::BeginChild("banner", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 1.6f), false);
        ImGui::SetCursorPos(ImVec2(8, 4));
        ImGui::TextColored(ImVec4(1, 0.95f, 0.8f, 1), "%s", banner.c_str());
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }
    ImGui::TextUnformatted(session.file().empty() ? "No kernel open" : session.file().string().c_str());
    ImGui::SameLine();
    const auto& last = session.last();
    if (session.busy()) {
        const bool compiling = !last || last->file != session.file().string() || session.busy_seconds() < 0.15;
        const double fraction = session.busy_fraction();
        if (session.busy_phase() == Phase::cpu && fraction >= 0)
            ImGui::TextColored(kAmber, "%s reference %.0f%% %.1f s", spinner(), 100 * fraction, session.busy_seconds());
        else
            ImGui::TextColored(kAmber, "%s %s %.1f s", spinner(), compiling ? "compiling and running..." : "running...", session.busy_seconds());
    } else if (last) {
        const int errors = last->compile.count(Severity::error);
        if (errors > 0) ImGui::TextColored(kRed, "%d compile error%s", errors, errors == 1 ? "" : "s");
        else if (!last->ok()) ImGui::TextColored(kRed, "failed at %s", stage_label(last->stage));
        else if (last->check.passed) ImGui::TextColored(kGreen, "PASS");
        else ImGui::TextColored(kRed, "FAIL");
    }
    if (session.shown_is_stale()) {
        ImGui::SameLine();
        ImGui::TextColored(kAmber, "(showing the last good output: stale)");
    }
    if (!session.notice().empty()) {
        ImGui::SameLine();
        ImGui::TextColored(kAmber, "%s", session.notice().c_str());
    }
    if (state.session.client().remote()) {
        // Where the kernels run, and what the link adds to each run.
        const RemoteStatus& link = state.session.client().remote_status();
        ImGui::SameLine();
        if (link.connected && link.link_ms >= 0)
            ImGui::TextColored(kGray, "  on %s, round trip %.1f ms", link.label.c_str(), link.link_ms);
        else if (link.connected)
            ImGui::TextColored(kGray, "  on %s (connected in %.0f ms)", link.label.c_str(), link.connect_ms);
        else
            ImGui::TextColored(link.connections > 0 ? kAmber : kGray, "  on %s: %s", link.label.c_str(),
                               link.connections > 0 ? "not connected (the next run reconnects)" : "connecting...");
    }
    if (!state.status_message.empty() && ImGui::GetTime() < state.status_until) {
        ImGui::SameLine();
        ImGui::TextColored(kGray, "  %s", state.status_message.c_str());
    }
}

}  // namespace kplay::window
