// The Compare tab: the open kernel file benched on every device group of the pool (CompareSession), a
// column per group, each against its own ceilings and its own cuBLAS. No figure relates two columns:
// the groups are different machines, so only each column's own percentage means anything.
#include <imgui.h>

#include "panels.hpp"
#include "plot_palette.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

const ImVec4 kPassText(0.45f, 0.85f, 0.45f, 1);

void draw_cell(const BenchCell& cell) {
    switch (cell.state) {
        case BenchCell::State::absent:
            ImGui::TextDisabled("-");
            break;
        case BenchCell::State::not_run:
            ImGui::TextDisabled("not run");
            break;
        case BenchCell::State::failed:
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(palette::kFailText, "%s", cell.failure.c_str());
            ImGui::PopTextWrapPos();
            break;
        case BenchCell::State::ran:
            ImGui::Text("%.4f ms", cell.median_ms);
            ImGui::Text("%s", cell.throughput.c_str());
            if (cell.percent == "-")
                ImGui::TextDisabled("no ceiling");
            else
                ImGui::Text("%s of its ceiling", cell.percent.c_str());
            ImGui::TextColored(cell.passed ? kPassText : palette::kFailText, "%s",
                               cell.passed ? "check PASS" : "check FAIL");
            break;
    }
}

}  // namespace

bool start_window_compare(AppState& state) {
    BenchSettings settings;
    settings.files = {state.session.file().string()};
    const bool started = state.compare.start(state.pool, std::move(settings));
    if (started) state.requested_tab = 4;
    return started;
}

void draw_compare_panel(AppState& state) {
    CompareSession& compare = state.compare;
    const WorkerPool* pool = state.pool.pool();
    const bool can_start = pool && !pool->groups().empty() && !compare.running() && !state.pool.lent();
    if (!can_start) ImGui::BeginDisabled();
    if (ImGui::Button("Compare across the pool's groups") && !start_window_compare(state)) state.say(compare.problem());
    if (!can_start) ImGui::EndDisabled();
    if (compare.running()) {
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) compare.cancel();
    }
    ImGui::SameLine();
    if (!pool)
        ImGui::TextDisabled(state.pool.starting() ? "the pool is starting..." : "start a pool in Device > Pool first");
    else if (state.pool.lent() && !compare.running())
        ImGui::TextDisabled("a sweep is using the pool");
    else
        ImGui::TextDisabled("%zu group%s in the pool", pool->groups().size(), pool->groups().size() == 1 ? "" : "s");
    if (!compare.problem().empty()) wrapped_colored(palette::kFailText, "%s", compare.problem().c_str());
    if (compare.titles().empty()) {
        wrapped_disabled(
            "Benches the open kernel file on every device group of the pool, one group after another, at "
            "its task's bench sizes: a column per group, each against its own ceilings and its own cuBLAS, "
            "as kplay-cli bench --pool does.");
        return;
    }
    const std::vector<BenchColumn>& columns = compare.columns();
    const std::vector<std::string>& titles = compare.titles();
    ImGui::Separator();
    ImGui::Text("%s", compare.files().empty() ? "" : compare.files().front().c_str());
    wrapped_disabled(
        "each column against its own group's ceilings and cuBLAS; times are never compared across columns");
    if (compare.running())
        ImGui::Text("running group %zu of %zu: %s...", columns.size() + 1, titles.size(),
                    columns.size() < titles.size() ? titles[columns.size()].c_str() : "");
    for (const BenchColumn& column : columns)
        wrapped_disabled("[%d] %s", column.group, bench_column_heading(column).c_str());

    const int count = static_cast<int>(titles.size()) + 1;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame;
    if (ImGui::BeginTable("compare_groups", count, flags)) {
        ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthFixed, 260 * state.content_scale);
        for (size_t i = 0; i < titles.size(); ++i) {
            const std::string name = "[" +
                                     std::to_string(i < columns.size() ? columns[i].group : static_cast<int>(i) + 1) +
                                     "] " + titles[i];
            ImGui::TableSetupColumn(name.c_str());
        }
        ImGui::TableHeadersRow();
        const std::vector<BenchGridRow> grid = bench_grid(columns);
        for (const BenchGridRow& row : grid) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(row.label.c_str());
            ImGui::PopTextWrapPos();
            for (size_t i = 0; i < titles.size(); ++i) {
                ImGui::TableSetColumnIndex(static_cast<int>(i) + 1);
                if (i < row.cells.size())
                    draw_cell(row.cells[i]);
                else
                    ImGui::TextDisabled(compare.running() && i == columns.size() ? "running..." : "waiting");
            }
        }
        if (grid.empty() && compare.running()) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextDisabled("running...");
        }
        ImGui::EndTable();
    }
    // What happened to each group beyond its cells: a worker that dropped out, a group that stopped.
    for (const BenchColumn& column : columns) {
        for (const std::string& note : column.notes) wrapped_disabled("[%d] note: %s", column.group, note.c_str());
        if (!column.failure.empty())
            wrapped_colored(palette::kFailText, "[%d] %s stopped: %s", column.group, column.title.c_str(),
                            column.failure.c_str());
    }
}

void update_compare(AppState& state) { state.compare.update(state.pool); }

}  // namespace kplay::window
