// Inside the kernel: the file read-only | its PTX | its SASS, linked by line (hover or click a line in
// any pane and its lines light up in the others), each source line with its instruction count, the
// resources ptxas reported and what changed since the last save, diagnostics and the fault's line
// marked, and a diff of the listings against the previous text or any recent run.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "base/text.hpp"
#include "fault_lines_view.hpp"
#include "inspect/listing_diff.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

const ImVec4 kDim(0.6f, 0.6f, 0.6f, 1), kWorse(1.0f, 0.45f, 0.4f, 1), kBetter(0.45f, 0.85f, 0.45f, 1);
const ImU32 kHighlight = IM_COL32(60, 90, 150, 150), kHover = IM_COL32(90, 90, 110, 110), kFaultRow = IM_COL32(140, 40, 40, 170), kErrorRow = IM_COL32(120, 40, 40, 110),
            kWarningRow = IM_COL32(120, 100, 30, 110), kHeat = IM_COL32(230, 140, 60, 220), kAdded = IM_COL32(40, 110, 50, 120),
            kRemoved = IM_COL32(130, 45, 45, 120);

// The source's lines and the instruction counts the heat column shows (SASS's where there is SASS),
// made again only when the inspection or the text changed.
void update_line_counts(InsideState& inside, const KernelSession& session, const RunInspection& now) {
    const std::string key = std::to_string(now.run) + "|" + now.text_key + "|" + std::to_string(session.reloads()) + "|" +
                            session.file().string();
    if (key == inside.lines_key) return;
    inside.lines_key = key;
    inside.source_lines.clear();
    for (const std::string_view line : split_lines(session.source())) inside.source_lines.emplace_back(line);
    const KernelInspection& inspection = now.inspection;
    inside.counts = inspection.sass ? inspection.sass->instructions_by_line() : inspection.ptx.instructions_by_line();
    inside.heaviest = 1;
    for (const auto& [line, count] : inside.counts) inside.heaviest = std::max(inside.heaviest, count);
}

// The diagnostics of the last compile that point at the kernel file, by line (the worst one kept).
std::map<int, const Diagnostic*> diagnostics_by_line(const KernelSession& session) {
    std::map<int, const Diagnostic*> by_line;
    if (!session.last()) return by_line;
    for (const auto& diagnostic : session.last()->compile.diagnostics) {
        if (diagnostic.line <= 0 || !is_kernel_file(diagnostic.file, session.file().string())) continue;
        auto& slot = by_line[diagnostic.line];
        if (!slot || diagnostic.severity == Severity::error) slot = &diagnostic;
    }
    return by_line;
}

void resources_line(const KernelInspection& inspection) {
    const PtxasResources& r = inspection.resources;
    if (!r.found) {
        ImGui::TextDisabled("ptxas said nothing of %s", inspection.lowered_name.c_str());
        return;
    }
    ImGui::Text("%d registers, %d B spill stores, %d B spill loads, %d B stack, %d B static smem, %d barriers", r.registers,
                r.spill_store_bytes, r.spill_load_bytes, r.stack_frame_bytes, r.static_smem_bytes, r.barriers);
    if (inspection.occupancy)
        wrapped_colored(kDim, "occupancy %d%% at %d threads per block (theoretical, %s): %s",
                        static_cast<int>(inspection.occupancy->fraction * 100 + 0.5), inspection.block_threads, inspection.arch.c_str(),
                        inspection.occupancy->why.c_str());
}

void changes_line(const KernelInspector& inspector) {
    const auto changes = inspector.changes();
    const RunInspection* before = inspector.previous();
    if (!before) return;
    if (changes.empty()) {
        ImGui::TextDisabled("resources as in run %d", before->run);
        return;
    }
    ImGui::TextUnformatted("since run");
    ImGui::SameLine();
    ImGui::Text("%d:", before->run);
    for (const auto& change : changes) {
        ImGui::SameLine();
        ImGui::TextColored(change.worse ? kWorse : kBetter, "%s", describe_changes({change}).c_str());
    }
}

// The diff of the listings against another inspection, cached in the panel state while both stay.
void update_diff(InsideState& inside, const RunInspection& now, const RunInspection* other) {
    const std::string key = other ? std::to_string(now.run) + now.text_key + "|" + std::to_string(other->run) + other->text_key : "";
    if (key == inside.diff_key) return;
    inside.diff_key = key;
    inside.ptx_diff.clear();
    inside.sass_diff.clear();
    inside.ptx_added = inside.ptx_removed = inside.sass_added = inside.sass_removed = 0;
    inside.diff_truncated = false;
    if (!other) return;
    auto fill = [&](const Listing& before, const Listing& after, std::vector<std::pair<int, std::string>>& out, int& added, int& removed) {
        const ListingDiff diff = diff_lines(comparable_lines(before), comparable_lines(after));
        inside.diff_truncated = inside.diff_truncated || diff.truncated;
        for (const auto& line : diff.lines)
            out.emplace_back(line.kind == DiffKind::added ? 1 : line.kind == DiffKind::removed ? -1 : 0, line.text);
        added = diff.added;
        removed = diff.removed;
    };
    fill(other->inspection.ptx, now.inspection.ptx, inside.ptx_diff, inside.ptx_added, inside.ptx_removed);
    if (now.inspection.sass && other->inspection.sass)
        fill(*other->inspection.sass, *now.inspection.sass, inside.sass_diff, inside.sass_added, inside.sass_removed);
}

struct PaneRow {
    int source_line = 0;  // what hovering or clicking it links to
    bool highlighted = false;  // linked to the selected line
    bool hovered = false;      // linked to the line under the mouse
    ImU32 background = 0;
};

// One pane: a scrolling child of rows drawn through a clipper (a large kernel's SASS has thousands),
// each a gutter and a line of code. Returns through `inside` the line hovered or clicked.
template <typename RowFn>
void pane(AppState& state, int index, const char* id, int rows, int scroll_to_row, RowFn&& row) {
    InsideState& inside = state.inside;
    ImGui::BeginChild(id, ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    if (state.code_font) ImGui::PushFont(state.code_font);
    const float row_height = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 origin = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    inside.pane_rects[index] = {origin.x, origin.y, size.x, size.y};
    if (inside.scroll_pending && scroll_to_row >= 0 && inside.clicked_pane != index) ImGui::SetScrollY(std::max(0.0f, scroll_to_row * row_height - size.y * 0.3f));
    ImGuiListClipper clipper;
    clipper.Begin(rows, row_height);
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            ImGui::PushID(i);
            const ImVec2 at = ImGui::GetCursorScreenPos();
            PaneRow info;
            const std::string text = row(i, info, at, row_height);
            ImDrawList* draw = ImGui::GetWindowDrawList();
            const float width = std::max(size.x, ImGui::CalcTextSize(text.c_str()).x + 160);
            if (info.background) draw->AddRectFilled(at, ImVec2(at.x + width, at.y + row_height), info.background);
            if (info.highlighted) draw->AddRectFilled(at, ImVec2(at.x + width, at.y + row_height), kHighlight);
            else if (info.hovered) draw->AddRectFilled(at, ImVec2(at.x + width, at.y + row_height), kHover);
            ImGui::TextUnformatted(text.c_str());
            if (ImGui::IsItemHovered() && info.source_line > 0) inside.hovered_line = info.source_line;
            if (ImGui::IsItemClicked() && info.source_line > 0) {
                inside.selected_line = info.source_line;
                inside.scroll_pending = true;
                inside.clicked_pane = index;  // the others scroll to the line; this one stays where it is
            }
            ImGui::PopID();
        }
    if (state.code_font) ImGui::PopFont();
    ImGui::EndChild();
}

// nvdisasm pads between the offset and the instruction to align predicates; in a narrow pane one
// space is enough (a predicate then shifts the instruction by its width).
std::string compact_sass(const std::string& text) {
    const size_t offset_end = text.rfind("*/", 12);
    if (text.compare(0, 2, "/*") != 0 || offset_end == std::string::npos) return text;
    const size_t start = text.find_first_not_of(' ', offset_end + 2);
    return start == std::string::npos ? text : text.substr(0, offset_end + 2) + " " + text.substr(start);
}

// The worst excess of a line's accesses over their ideal (sectors, or shared wavefronts); 0 without any.
double worst_excess(const LineAccess& a) {
    return std::max({a.global_loads.excess(), a.global_stores.excess(), a.shared_loads.excess(), a.shared_stores.excess()});
}

// The colour scale of the memory column: green at the ideal, through yellow, to red at 8x and above.
ImU32 excess_colour(double excess) {
    const float t = static_cast<float>(std::clamp(std::log2(std::max(excess, 1.0)) / 3.0, 0.0, 1.0));
    const float red = t < 0.5f ? 0.25f + 1.5f * t : 1.0f, green = t < 0.5f ? 0.75f : 0.75f - 1.3f * (t - 0.5f);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(red, green, 0.25f, 0.75f));
}

// The memory per line shown: Nsight Compute's measurement when there is one, else a tracked emulated
// run's own counts (every run on the emulated device has them).
const LineAccessProfile* shown_line_access(const KernelSession& session) {
    if (session.line_access() && session.line_access()->access) return &session.line_access()->access->profile;
    const auto& last = session.last();
    return last && last->emulated && !last->line_access.empty() ? &last->line_access.front() : nullptr;
}

void colour_scale() {
    for (double excess : {1.0, 2.0, 4.0, 8.0}) {
        ImGui::SameLine();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(excess_colour(excess) | IM_COL32_A_MASK), "%gx", excess);
    }
}

// The memory measurement's controls and state: the button, what it is doing, the scale, why there is none.
void line_access_controls(KernelSession& session, int run) {
    if (!session.line_access() && shown_line_access(session)) {
        ImGui::TextDisabled("Memory per line (the emulated device's count of its first blocks): the x column is the worst access's cost over the ideal;");
        colour_scale();
    }
    if (session.can_measure_lines()) {
        if (ImGui::SmallButton("Memory per line (ncu)")) session.measure_lines();
        ImGui::SameLine();
        ImGui::TextDisabled("sectors and shared wavefronts per request against the ideal, from Nsight Compute");
    }
    if (session.measuring_lines()) ImGui::TextDisabled("Nsight Compute is counting each instruction's memory traffic...");
    const auto& outcome = session.line_access();
    if (!outcome) return;
    if (!outcome->access) {
        wrapped_colored(kDim, "Memory per line: %s", outcome->problem.c_str());
        return;
    }
    ImGui::TextDisabled("Memory per line (ncu, run %d%s): the x column is the worst access's cost over the ideal;", session.line_access_run(),
                        session.line_access_run() == run ? "" : ", an earlier run");
    colour_scale();
    if (!outcome->missing.empty()) wrapped_colored(kDim, "(ncu gave no %s)", join(outcome->missing).c_str());
}

// The other access of the race whose line was found (0: none), marked like that line.
int other_race_line(const KernelSession& session, int fault_line) {
    for (const FaultLocation& location : session.fault_locations())
        if (location.found && location.line == fault_line) return location.other_line;
    return 0;
}

std::string gutter(int line) {
    char buffer[16];
    if (line > 0) std::snprintf(buffer, sizeof buffer, "%5d  ", line);
    else std::snprintf(buffer, sizeof buffer, "%5s  ", "");
    return buffer;
}

}  // namespace

void draw_inside_panel(AppState& state) {
    KernelSession& session = state.session;
    InsideState& inside = state.inside;
    inside.shown_hover = inside.hovered_line;
    inside.hovered_line = 0;
    inside.highlighted = {};
    const KernelInspector& inspector = session.inspector();
    const RunInspection* now = inspector.current();
    draw_fault_lines(state, false);
    if (!now) {
        ImGui::TextDisabled(inspector.busy() ? "Compiling for inspection..." : "The PTX, SASS and resources of the kernel appear after its first compile.");
        return;
    }
    const KernelInspection& inspection = now->inspection;
    if (!inspection.compiled) {
        wrapped_colored(kWorse, "Run %d: %s", now->run, inspection.problem.c_str());
        return;
    }
    ImGui::Text("%s  (%s, %s)%s", inspection.kernel.c_str(), inspection.lowered_name.c_str(), inspection.arch.c_str(),
                inspector.busy() ? "  updating..." : "");
    resources_line(inspection);
    changes_line(inspector);
    line_access_controls(session, now->run);
    for (const auto& note : inspection.ptxas.notes) wrapped_colored(kDim, "ptxas: %s", note.c_str());
    if (!inspection.sass_problem.empty()) wrapped_colored(kDim, "%s", inspection.sass_problem.c_str());

    // What the listings show: themselves, or a diff against the previous text or a recent run.
    ImGui::RadioButton("listings", &inside.diff_against, 0);
    ImGui::SameLine();
    const RunInspection* previous = inspector.previous();
    if (previous) {
        ImGui::RadioButton("diff against the previous text", &inside.diff_against, -1);
        ImGui::SameLine();
    }
    ImGui::SetNextItemWidth(140 * state.content_scale);
    const std::string label = inside.diff_against > 0 ? "run " + std::to_string(inside.diff_against) : "a run...";
    if (ImGui::BeginCombo("##diffrun", label.c_str())) {
        for (const auto& entry : inspector.recent())
            if (&entry != now && entry.inspection.compiled && ImGui::Selectable(("run " + std::to_string(entry.run)).c_str(), inside.diff_against == entry.run))
                inside.diff_against = entry.run;
        ImGui::EndCombo();
    }
    const RunInspection* other = inside.diff_against == -1 ? previous : inside.diff_against > 0 ? inspector.of_run(inside.diff_against) : nullptr;
    if (other == now) other = nullptr;
    update_diff(inside, *now, other);
    if (other) {
        ImGui::SameLine();
        ImGui::TextDisabled("PTX +%d -%d, SASS +%d -%d%s", inside.ptx_added, inside.ptx_removed, inside.sass_added, inside.sass_removed,
                            inside.diff_truncated ? " (too different: not all shown)" : "");
    }

    update_line_counts(inside, session, *now);
    const std::vector<std::string>& source = inside.source_lines;
    const std::map<int, int>& counts = inside.counts;
    const int heaviest = inside.heaviest;
    const auto diagnostics = diagnostics_by_line(session);
    const int fault_line = session.fault_line();
    const int race_other_line = other_race_line(session, fault_line);  // marked like the line found
    const LineAccessProfile* memory = shown_line_access(session);
    // The selected line is highlighted; the one under the mouse, more lightly.
    const int highlight = inside.selected_line, hover = inside.shown_hover;
    auto first_row_of = [&](const Listing* listing) {
        if (!inside.scroll_pending || inside.selected_line <= 0 || !listing) return -1;
        const std::vector<int> rows = listing->lines_of(inside.selected_line);
        return rows.empty() ? -1 : rows.front();
    };

    if (!ImGui::BeginTable("inside", 3, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV, ImVec2(0, ImGui::GetContentRegionAvail().y))) return;
    ImGui::TableSetupColumn(("source (" + std::string(inspection.sass ? "SASS" : "PTX") + " instructions per line)").c_str(),
                            ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn(other ? "PTX diff" : "PTX", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(other ? "SASS diff" : "SASS", ImGuiTableColumnFlags_WidthStretch, inspection.sass ? 1.2f : 0.4f);
    ImGui::TableHeadersRow();
    ImGui::TableNextRow();

    ImGui::TableSetColumnIndex(0);
    // The rows each pane links to the highlighted line (all of them, not only those on screen).
    inside.highlighted_line = highlight;
    inside.highlighted = {highlight > 0 && highlight <= static_cast<int>(source.size()) ? 1 : 0,
                          other ? 0 : static_cast<int>(inspection.ptx.lines_of(highlight).size()),
                          other || !inspection.sass ? 0 : static_cast<int>(inspection.sass->lines_of(highlight).size())};
    pane(state, 0, "##source", static_cast<int>(source.size()), inside.selected_line > 0 ? inside.selected_line - 1 : -1,
         [&](int i, PaneRow& row, ImVec2 at, float height) {
             const int line = i + 1;
             row.source_line = line;
             row.highlighted = line == highlight;
             row.hovered = line == hover;
             if (line == fault_line || line == race_other_line) row.background = kFaultRow;
             else if (auto found = diagnostics.find(line); found != diagnostics.end())
                 row.background = found->second->severity == Severity::error ? kErrorRow : kWarningRow;
             const auto count = counts.find(line);
             const int n = count == counts.end() ? 0 : count->second;
             // The heat bar sits in the gutter after the line number, as long as the line is heavy.
             const float bar_x = at.x + ImGui::CalcTextSize("00000 ").x, bar_w = 36 * state.content_scale;
             if (n > 0)
                 ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(bar_x, at.y + 3), ImVec2(bar_x + bar_w * n / heaviest, at.y + height - 3), kHeat);
             char prefix[48];
             std::snprintf(prefix, sizeof prefix, "%5d %*s%4s  ", line, static_cast<int>(bar_w / ImGui::CalcTextSize(" ").x), "",
                           n > 0 ? std::to_string(n).c_str() : "");
             if (!memory) return prefix + source[i];
             // The memory column: the worst excess over the ideal, on its colour.
             const LineAccess* access = find_line(*memory, session.file().string(), line);
             const double excess = access ? worst_excess(*access) : 0;
             char cell[16] = "      ";
             if (excess > 0) {
                 std::snprintf(cell, sizeof cell, "%5.1fx", excess);
                 const float cell_x = at.x + ImGui::CalcTextSize(prefix).x;
                 ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(cell_x, at.y + 1), ImVec2(cell_x + ImGui::CalcTextSize(cell).x, at.y + height - 1),
                                                           excess_colour(excess));
             }
             return prefix + std::string(cell) + "  " + source[i];
         });
    if (ImGui::IsItemHovered()) {
        if (auto found = diagnostics.find(inside.shown_hover); found != diagnostics.end()) ImGui::SetTooltip("%s", found->second->message.c_str());
        else if (inside.shown_hover > 0 && (inside.shown_hover == fault_line || inside.shown_hover == race_other_line) &&
                 !session.fault_locations().empty())
            ImGui::SetTooltip("%s", session.fault_locations().front().message.c_str());
        else if (const LineAccess* access = memory ? find_line(*memory, session.file().string(), inside.shown_hover) : nullptr)
            ImGui::SetTooltip("line %d: %s\n%lld warp stall samples", access->line, describe_line_access(*access).c_str(),
                              static_cast<long long>(access->stall_samples));
    }

    auto listing_pane = [&](int index, const char* id, const Listing* listing, const std::vector<std::pair<int, std::string>>& diff) {
        if (!listing) {
            ImGui::TextDisabled("no SASS");
            return;
        }
        if (other) {
            pane(state, index, id, static_cast<int>(diff.size()), -1, [&](int i, PaneRow& row, ImVec2, float) {
                row.background = diff[i].first > 0 ? kAdded : diff[i].first < 0 ? kRemoved : 0;
                return std::string(diff[i].first > 0 ? "+ " : diff[i].first < 0 ? "- " : "  ") + diff[i].second;
            });
            return;
        }
        pane(state, index, id, static_cast<int>(listing->lines.size()), first_row_of(listing), [&](int i, PaneRow& row, ImVec2, float) {
            const ListingLine& line = listing->lines[i];
            row.source_line = line.source_line;
            row.highlighted = highlight > 0 && line.source_line == highlight;
            row.hovered = hover > 0 && line.source_line == hover;
            return gutter(line.source_line) + (index == 2 ? compact_sass(line.text) : line.text);
        });
    };
    ImGui::TableSetColumnIndex(1);
    listing_pane(1, "##ptx", &inspection.ptx, inside.ptx_diff);
    ImGui::TableSetColumnIndex(2);
    listing_pane(2, "##sass", inspection.sass ? &*inspection.sass : nullptr, inside.sass_diff);
    ImGui::EndTable();
    inside.scroll_pending = false;  // each pane has scrolled to the selected line this frame
}

}  // namespace kplay::window
