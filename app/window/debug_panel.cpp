// The Debug tab: choose a block, a thread and a line (a click on the source), run to it, then Step and
// Continue; the source with the stopped line marked beside the thread's locals and its block's shared
// arrays. gdb runs the commands (session/debug_session.hpp), one at a time, off the UI thread.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "base/text.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

const ImVec4 kStoppedColor(0.45f, 0.85f, 0.45f, 1);
const ImU32 kStoppedRow = IM_COL32(60, 110, 60, 150);
const ImU32 kChosenRow = IM_COL32(70, 70, 110, 120);

// kplay-cli beside this program: gdb runs the debug launch in it (--in-process --debug-build).
std::filesystem::path kplay_cli_path() {
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path("kplay-cli") : exe.parent_path() / "kplay-cli";
}

// The session's launch as kplay-cli run's arguments: its sizes, block, grid, shared memory, arguments and defines.
std::vector<std::string> run_arguments(const KernelSession& session) {
    std::vector<std::string> arguments;
    if (const auto& last = session.last(); last && last->spec) {
        std::vector<std::string> sizes;
        for (const auto& name : last->spec->task.sizes.names)
            if (last->values.count(name)) sizes.push_back(name + "=" + std::to_string(last->values.at(name)));
        if (!sizes.empty()) arguments.insert(arguments.end(), {"--size", join(sizes, ",")});
    }
    auto dims = [](const std::array<int64_t, 3>& d) { return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]); };
    const LaunchOverrides& o = session.overrides;
    if (o.block) arguments.insert(arguments.end(), {"--block", dims(*o.block)});
    if (o.grid) arguments.insert(arguments.end(), {"--grid", dims(*o.grid)});
    if (o.smem) arguments.insert(arguments.end(), {"--smem", std::to_string(*o.smem)});
    for (const auto& [name, value] : o.args) arguments.insert(arguments.end(), {"--arg", name + "=" + value});
    for (const auto& [name, value] : o.defines) arguments.insert(arguments.end(), {"-D", name + (value.empty() ? "" : "=" + value)});
    return arguments;
}

void begin(DebugUiState& debug, const std::string& action, std::function<DebugStop()> work) {
    debug.working_on = action;
    debug.last_action = action;
    debug.work.start(std::move(work));
}

bool index_inputs(const char* label, std::array<int, 3>& index, float width) {
    ImGui::AlignTextToFramePadding();  // the label on the inputs' text line
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(width);
    const bool changed = ImGui::InputInt3((std::string("##") + label).c_str(), index.data());
    for (int& v : index) v = std::max(0, v);
    return changed;
}

void controls(AppState& state) {
    DebugUiState& debug = state.debug;
    const bool busy = debug.work.running();
    const bool stopped = debug.session && debug.session->active() && !busy;
    const float scale = state.content_scale;
    index_inputs("block", debug.block, 130 * scale);
    ImGui::SameLine(0, 18 * scale);
    index_inputs("thread", debug.thread, 130 * scale);
    ImGui::SameLine(0, 18 * scale);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("line");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90 * scale);
    ImGui::InputInt("##debug_line", &debug.line);
    debug.line = std::max(0, debug.line);

    ImGui::BeginDisabled(busy || debug.line <= 0 || state.session.file().empty());
    if (ImGui::Button("Run to line")) start_debug_run(state);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!stopped || !debug.stop || debug.stop->state != DebugState::stopped);
    if (ImGui::Button("Step")) begin(debug, "step", [session = debug.session] { return session->step(); });
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!stopped || !debug.stop || debug.stop->state == DebugState::launch_ended);
    if (ImGui::Button("Continue")) begin(debug, "continue", [session = debug.session] { return session->continue_(); });
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!stopped);
    if (ImGui::Button("Stop")) {
        debug.session->finish();
        debug.stop.reset();
        debug.last_action.clear();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (busy) ImGui::TextDisabled("%s ...", debug.working_on.c_str());
    else if (debug.line <= 0) ImGui::TextDisabled("click a source line to choose it");
}

std::string index_text(const DebugIndex& index) {
    return "(" + std::to_string(index[0]) + "," + std::to_string(index[1]) + "," + std::to_string(index[2]) + ")";
}

void status(AppState& state) {
    const DebugUiState& debug = state.debug;
    if (!debug.stop) {
        wrapped_disabled("Runs the kernel on the emulated CPU device under gdb (one worker thread, built with -O0 -g) and stops only in "
                         "the chosen thread.");
    } else if (debug.stop->state == DebugState::stopped) {
        ImGui::TextColored(kStoppedColor, "stopped at %s:%d in %s, block %s thread %s (%s)", debug.stop->file.c_str(), debug.stop->line,
                           debug.stop->function.c_str(), index_text(debug.stop->block).c_str(), index_text(debug.stop->thread).c_str(),
                           debug.last_action.c_str());
        if (!debug.stop->message.empty()) wrapped_disabled("%s", debug.stop->message.c_str());
    } else if (debug.stop->state == DebugState::failed) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.45f, 0.4f, 1));
        ImGui::TextWrapped("%s", debug.stop->message.c_str());
        ImGui::PopStyleColor();
    } else {
        ImGui::TextWrapped("%s", debug.stop->message.c_str());
    }
    wrapped_disabled("%s", debug.gpu_note.c_str());
}

void source_view(AppState& state, float height) {
    DebugUiState& debug = state.debug;
    const std::vector<std::string_view> lines = split_lines(state.session.source());
    const int marked = debug.stop && debug.stop->state == DebugState::stopped ? debug.stop->line : 0;
    ImGui::BeginChild("##debug_source", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
    if (state.code_font) ImGui::PushFont(state.code_font);
    const float row = ImGui::GetTextLineHeightWithSpacing();
    if (marked > 0 && marked != debug.scrolled_to) {  // a new stop's line, scrolled into view once
        ImGui::SetScrollY(std::max(0.0f, (marked - 1) * row - height * 0.35f));
        debug.scrolled_to = marked;
    }
    for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
        const int line = i + 1;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float width = std::max(ImGui::GetWindowWidth(), ImGui::CalcTextSize(std::string(lines[i]).c_str()).x + 120);
        ImDrawList* draw = ImGui::GetWindowDrawList();
        if (line == marked) draw->AddRectFilled(at, ImVec2(at.x + width, at.y + row), kStoppedRow);
        else if (line == debug.line) draw->AddRectFilled(at, ImVec2(at.x + width, at.y + row), kChosenRow);
        char gutter[16];
        std::snprintf(gutter, sizeof gutter, "%s%4d  ", line == marked ? "->" : line == debug.line ? " *" : "  ", line);
        ImGui::TextUnformatted((gutter + std::string(lines[i])).c_str());
        if (ImGui::IsItemClicked() && !debug.work.running()) debug.line = line;
    }
    if (state.code_font) ImGui::PopFont();
    ImGui::EndChild();
}

void variables_table(const char* id, const char* title, const std::vector<DebugVariable>& variables, const ImFont* code_font) {
    ImGui::TextUnformatted(title);
    if (variables.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("(none in scope)");
        return;
    }
    if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable)) return;
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("type", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const auto& v : variables) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(v.name.c_str());
        ImGui::TableSetColumnIndex(1);
        ImGui::TextDisabled("%s", v.type.c_str());
        ImGui::TableSetColumnIndex(2);
        if (code_font) ImGui::PushFont(const_cast<ImFont*>(code_font));
        ImGui::TextWrapped("%s", v.value.c_str());
        if (code_font) ImGui::PopFont();
    }
    ImGui::EndTable();
}

}  // namespace

void start_debug_run(AppState& state) {
    DebugUiState& debug = state.debug;
    if (debug.work.running()) return;
    if (!debug.session) debug.session = std::make_shared<DebugSession>();
    DebugRequest request;
    request.kplay_cli = kplay_cli_path();
    request.file = state.session.file();
    request.run_arguments = run_arguments(state.session);
    for (int i = 0; i < 3; ++i) {
        request.block[i] = static_cast<unsigned>(debug.block[i]);
        request.thread[i] = static_cast<unsigned>(debug.thread[i]);
    }
    request.line = debug.line;
    begin(debug, "run to line", [session = debug.session, request] { return session->start(request); });
}

void draw_debug_panel(AppState& state) {
    DebugUiState& debug = state.debug;
    if (debug.gpu_note.empty()) debug.gpu_note = gpu_debugging_note();
    if (auto answer = debug.work.take()) {
        debug.stop = std::move(*answer);
        debug.working_on.clear();
        if (debug.steps_requested > 0 && debug.stop->state == DebugState::stopped) {  // --test-debug's steps
            --debug.steps_requested;
            begin(debug, "step", [session = debug.session] { return session->step(); });
        }
    }
    controls(state);
    status(state);
    ImGui::Separator();
    const float height = ImGui::GetContentRegionAvail().y;
    if (!ImGui::BeginTable("debug_columns", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV, ImVec2(0, height))) return;
    ImGui::TableSetupColumn("source", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn("variables", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    source_view(state, height - 8 * state.content_scale);
    ImGui::TableSetColumnIndex(1);
    if (debug.stop && debug.stop->state == DebugState::stopped) {
        variables_table("##locals", "Locals of the thread", debug.stop->locals, state.code_font);
        ImGui::Spacing();
        variables_table("##shared", "Shared memory of the block", debug.stop->shared, state.code_font);
    } else {
        ImGui::TextDisabled("Locals and shared arrays appear here at a stop.");
    }
    ImGui::EndTable();
}

}  // namespace kplay::window
