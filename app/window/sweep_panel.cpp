// The Sweep tab: the space typed as kplay-sweep items, a live progress bar with the ETA, a plot of time
// against one parameter (or a heatmap over two) with hover, the table of every point, and apply best.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "panels.hpp"
#include "plot_palette.hpp"
#include "sweep_workers_model.hpp"
#include "sweep/sweep_table.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

constexpr ImU32 kPass = IM_COL32(90, 200, 120, 255);
constexpr ImU32 kFailedPoint = IM_COL32(240, 160, 60, 255);
constexpr ImU32 kPruned = IM_COL32(120, 120, 125, 255);
constexpr ImU32 kBest = IM_COL32(255, 255, 255, 255);
const ImVec4 kPrunedText(0.6f, 0.6f, 0.62f, 1);
const ImVec4 kFailedText(0.95f, 0.65f, 0.3f, 1);
const ImVec4 kPassText(0.45f, 0.85f, 0.55f, 1);

bool timed(const PointResult& r) { return r.state == PointState::passed || r.state == PointState::wrong; }

ImU32 state_colour(const PointResult& r) {
    switch (r.state) {
        case PointState::passed: return kPass;
        case PointState::wrong: return palette::kFail;
        case PointState::failed: return kFailedPoint;
        default: return kPruned;
    }
}

std::string describe(const PointResult& r) {
    char text[96] = "";
    if (timed(r)) std::snprintf(text, sizeof text, "%.4f ms median (%.4f - %.4f)", r.median_ms, r.min_ms, r.max_ms);
    std::string line = r.label + "\n" + point_state_name(r.state);
    if (timed(r)) line += ": " + std::string(text);
    if (!r.reason.empty()) line += "\n" + r.reason;
    if (r.confirmed_ms > 0) {
        std::snprintf(text, sizeof text, "\nconfirmed %.4f ms, spread %.1f%%", r.confirmed_ms, 100 * r.spread);
        line += text;
    }
    return line;
}

size_t value_index(const SweepParam& param, const std::string& value) {
    return static_cast<size_t>(std::find(param.values.begin(), param.values.end(), value) - param.values.begin());
}

// Where the next sweep runs: the pool's chosen group, or the sweep's own worker.
void draw_where(const AppState& state) {
    const PoolSession& pool = state.pool;
    const std::optional<size_t> group = pool.sweep_group();
    if (pool.starting()) {
        ImGui::TextDisabled("the pool %s is starting; until it is up, a sweep runs on a worker of its own", pool.started_spec.c_str());
    } else if (group && pool.pool()) {
        const DeviceGroup& g = pool.pool()->groups()[*group];
        ImGui::TextDisabled("sweeps run on pool group %zu: %s, %zu worker%s (Device > Pool chooses)", *group + 1, group_title(g).c_str(),
                            g.workers.size(), g.workers.size() == 1 ? "" : "s");
    } else {
        ImGui::TextDisabled("sweeps run on a worker of their own (Device > Pool spreads them over several)");
    }
}

// A pool sweep's workers: what each ran, what it runs now, a worker replaced or dropped out; then the
// sweep's notes ("worker 2 (gpu-box) dropped out after 7 points; its points go to the other 1").
void draw_workers(AppState& state, const Sweep& sweep) {
    const std::vector<WorkerRow> rows = worker_rows(sweep.workers());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("sweep_workers", 3, flags)) {
        ImGui::TableSetupColumn("worker", ImGuiTableColumnFlags_WidthFixed, 170 * state.content_scale);
        ImGui::TableSetupColumn("done", ImGuiTableColumnFlags_WidthFixed, 190 * state.content_scale);
        ImGui::TableSetupColumn("now", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (const WorkerRow& row : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row.name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row.points.c_str());
            ImGui::TableNextColumn();
            if (row.dropped) ImGui::TextColored(kFailedText, "%s", row.now.c_str());
            else if (row.busy) ImGui::TextColored(kPassText, "%s", row.now.c_str());
            else ImGui::TextDisabled("%s", row.now.c_str());
        }
        ImGui::EndTable();
    }
    for (const std::string& note : sweep.notes()) wrapped_colored(kFailedText, "%s", note.c_str());
}

void draw_controls(AppState& state) {
    SweepSession& sweeps = state.sweeps;
    const bool running = sweeps.running();
    const float scale = state.content_scale;
    ImGui::BeginGroup();
    ImGui::TextDisabled("parameters, one per line: NAME=8,16,32 or NAME=32..1024 step *2; restrict EXPR");
    ImGui::InputTextMultiline("##sweep_space", &sweeps.text, ImVec2(ImGui::GetContentRegionAvail().x * 0.58f, 5.2f * ImGui::GetTextLineHeight()),
                              running ? ImGuiInputTextFlags_ReadOnly : 0);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushItemWidth(130 * scale);
    int strategy = sweeps.strategy == SweepStrategy::random ? 1 : 0;
    if (ImGui::Combo("strategy", &strategy, "exhaustive\0random\0")) sweeps.strategy = strategy ? SweepStrategy::random : SweepStrategy::exhaustive;
    ImGui::InputText("budget (40 or 90s)", &sweeps.budget);
    ImGui::InputInt("confirm top", &sweeps.confirm_top);
    sweeps.confirm_top = std::clamp(sweeps.confirm_top, 0, 20);
    ImGui::PopItemWidth();
    ImGui::Checkbox("time at the current sizes (else the bench size)", &state.sweep_ui.at_current_sizes);
    if (running) {
        if (ImGui::Button("Cancel", ImVec2(120 * scale, 0))) sweeps.cancel();
    } else {
        const bool can_start = !state.session.file().empty() && state.session.devices_known();
        if (!can_start) ImGui::BeginDisabled();
        if (ImGui::Button("Start sweep", ImVec2(120 * scale, 0)) && start_window_sweep(state, state.sweep_ui.at_current_sizes)) {
            state.sweep_ui.x_param = 0;
            state.sweep_ui.y_param = sweeps.sweep()->target().space.params.size() >= 2 ? 1 : -1;
        }
        if (!can_start) ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Suggest")) sweeps.suggest(state.session.source(), state.session.spec());
    }
    ImGui::EndGroup();
    draw_where(state);
}

void draw_progress(AppState& state, const Sweep& sweep) {
    char text[256];
    const auto eta = sweep.eta_seconds();
    char eta_text[32] = "ETA --:--";
    if (eta) std::snprintf(eta_text, sizeof eta_text, "ETA %d:%02d", static_cast<int>(*eta) / 60, static_cast<int>(*eta) % 60);
    const char* phase = sweep_phase_name(sweep.phase());
    if (sweep.finished())
        std::snprintf(text, sizeof text, "%s: %d runs in %.1f s, %zu points (%d pruned, %d from the cache)", phase, sweep.runs_done(),
                      sweep.elapsed_seconds(), sweep.results().size(), sweep.pruned(), sweep.from_cache());
    else
        std::snprintf(text, sizeof text, "%s %d/%d runs  %s  %s", phase, sweep.runs_done(), sweep.runs_expected(), eta_text, sweep.running().c_str());
    ImGui::ProgressBar(static_cast<float>(sweep.fraction_done()), ImVec2(-1, 0), text);
    const SweepTarget& target = sweep.target();
    ImGui::TextDisabled("%s at %s on %s%s", target.file.filename().string().c_str(), target.sizes_text.c_str(), target.device.name.c_str(),
                        target.emulated ? " (CPU wall time: says nothing about GPU speed)" : "");
    (void)state;
}

// Time over the x parameter's values; each point a marker (passed green, wrong red), pruned and failed
// points as ticks along the top, where they have no time.
void draw_scatter(AppState& state, const Sweep& sweep, ImVec2 origin, ImVec2 size, ImDrawList* draw) {
    const auto& results = sweep.results();
    const SweepParam& x = sweep.target().space.params[state.sweep_ui.x_param];
    double top = 0;
    for (const auto& r : results)
        if (timed(r)) top = std::max(top, r.max_ms > 0 ? r.max_ms : r.median_ms);
    top = top > 0 ? top * 1.1 : 1;
    const float left = origin.x + 62 * state.content_scale, bottom = origin.y + size.y - 22 * state.content_scale;
    const float band = origin.y + 14 * state.content_scale;  // the "no time" band
    const float width = origin.x + size.x - left - 8, height = bottom - band - 8;
    for (int tick = 0; tick <= 4; ++tick) {
        const float y = bottom - height * tick / 4.0f;
        draw->AddLine(ImVec2(left, y), ImVec2(left + width, y), palette::kGrid);
        char label[32];
        std::snprintf(label, sizeof label, "%.3g ms", top * tick / 4);
        draw->AddText(ImVec2(origin.x + 4, y - ImGui::GetTextLineHeight() / 2), palette::kAxisText, label);
    }
    draw->AddText(ImVec2(origin.x + 4, origin.y), palette::kAxisText, "no time");
    // The legend, along the top band: what each mark means.
    float lx = left + 60 * state.content_scale;
    const float ly = origin.y + ImGui::GetTextLineHeight() / 2;
    const auto legend = [&](ImU32 colour, const char* text, bool cross) {
        const float r = 4 * state.content_scale;
        if (cross) {
            draw->AddLine(ImVec2(lx - r, ly - r), ImVec2(lx + r, ly + r), colour, 2);
            draw->AddLine(ImVec2(lx - r, ly + r), ImVec2(lx + r, ly - r), colour, 2);
        } else {
            draw->AddCircleFilled(ImVec2(lx, ly), r, colour);
        }
        draw->AddText(ImVec2(lx + 2 * r, origin.y), palette::kAxisText, text);
        lx += 2 * r + ImGui::CalcTextSize(text).x + 14 * state.content_scale;
    };
    legend(kPass, "passed", false);
    legend(palette::kFail, "wrong (never wins)", true);
    legend(kFailedPoint, "failed", false);
    legend(kPruned, "pruned", false);
    draw->AddCircle(ImVec2(lx, ly), 6 * state.content_scale, kBest, 0, 2);
    draw->AddText(ImVec2(lx + 10 * state.content_scale, origin.y), palette::kAxisText, "best");
    const size_t slots = std::max<size_t>(1, x.values.size());
    const float slot = width / slots;
    for (size_t i = 0; i < x.values.size(); ++i) {
        const std::string label = x.values[i];
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        if (slot > w + 4 || i % std::max<size_t>(1, static_cast<size_t>((w + 8) / slot + 1)) == 0)
            draw->AddText(ImVec2(left + slot * (i + 0.5f) - w / 2, bottom + 4), palette::kAxisText, label.c_str());
    }
    const std::string axis = x.name + (x.kind == SweepParamKind::define ? " (-D)" : "");
    draw->AddText(ImVec2(left + width - ImGui::CalcTextSize(axis.c_str()).x, origin.y), palette::kAxisText, axis.c_str());
    // Points sharing an x value spread across its slot, so none hides another.
    std::vector<int> per_slot(slots, 0), seen(slots, 0);
    const size_t xi = static_cast<size_t>(state.sweep_ui.x_param);
    for (const auto& r : results) ++per_slot[std::min(slots - 1, value_index(x, r.point.values[xi]))];
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const auto best = sweep.best();
    float nearest = 8 * state.content_scale;
    std::string hovered;
    state.sweep_ui.plotted = 0;
    for (size_t i = 0; i < results.size(); ++i) {
        const PointResult& r = results[i];
        const size_t s = std::min(slots - 1, value_index(x, r.point.values[xi]));
        const float spread = per_slot[s] > 1 ? slot * 0.6f * (seen[s]++ / static_cast<float>(per_slot[s] - 1) - 0.5f) : 0;
        const float px = left + slot * (s + 0.5f) + spread;
        const float py = timed(r) ? bottom - static_cast<float>(r.median_ms / top) * height : band;
        const float radius = (timed(r) ? 4.5f : 3.0f) * state.content_scale;
        if (r.state == PointState::wrong) {
            draw->AddLine(ImVec2(px - radius, py - radius), ImVec2(px + radius, py + radius), palette::kFail, 2);
            draw->AddLine(ImVec2(px - radius, py + radius), ImVec2(px + radius, py - radius), palette::kFail, 2);
        } else if (r.state != PointState::pending) {
            draw->AddCircleFilled(ImVec2(px, py), radius, state_colour(r));
        }
        if (best && *best == i) draw->AddCircle(ImVec2(px, py), radius + 4 * state.content_scale, kBest, 0, 2);
        ++state.sweep_ui.plotted;
        const float distance = std::hypot(mouse.x - px, mouse.y - py);
        if (distance < nearest) {
            nearest = distance;
            hovered = describe(r);
            state.sweep_ui.hovered = r.label;
        }
    }
    if (!hovered.empty()) ImGui::SetTooltip("%s", hovered.c_str());
}

// The fastest correct time in each (x, y) cell over the other parameters; red where every point that
// ran was wrong, orange where they failed, grey where all were pruned.
void draw_heatmap(AppState& state, const Sweep& sweep, ImVec2 origin, ImVec2 size, ImDrawList* draw) {
    const auto& results = sweep.results();
    const auto& params = sweep.target().space.params;
    const SweepParam& x = params[state.sweep_ui.x_param];
    const SweepParam& y = params[state.sweep_ui.y_param];
    const size_t nx = x.values.size(), ny = y.values.size();
    struct Cell {
        int best = -1;
        int wrong = 0, failed = 0, pruned = 0, total = 0;
    };
    std::vector<Cell> cells(nx * ny);
    double low = 1e300, high = 0;
    for (size_t i = 0; i < results.size(); ++i) {
        const PointResult& r = results[i];
        const size_t cx = value_index(x, r.point.values[state.sweep_ui.x_param]);
        const size_t cy = value_index(y, r.point.values[state.sweep_ui.y_param]);
        if (cx >= nx || cy >= ny) continue;
        Cell& cell = cells[cy * nx + cx];
        ++cell.total;
        if (r.state == PointState::passed) {
            // The sweep's own medians, the same measurement for every cell (the confirm round re-times only a few).
            if (cell.best < 0 || r.median_ms < results[cell.best].median_ms) cell.best = static_cast<int>(i);
            low = std::min(low, r.median_ms);
            high = std::max(high, r.median_ms);
        }
        cell.wrong += r.state == PointState::wrong;
        cell.failed += r.state == PointState::failed;
        cell.pruned += r.state == PointState::pruned;
    }
    const float left = origin.x + 70 * state.content_scale, bottom = origin.y + size.y - 22 * state.content_scale;
    const float top = origin.y + 16 * state.content_scale;
    const float cw = (origin.x + size.x - left - 8) / std::max<size_t>(1, nx), ch = (bottom - top) / std::max<size_t>(1, ny);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const auto best = sweep.best();
    std::string hovered;
    state.sweep_ui.plotted = 0;
    for (size_t cy = 0; cy < ny; ++cy) {
        for (size_t cx = 0; cx < nx; ++cx) {
            const Cell& cell = cells[cy * nx + cx];
            const ImVec2 a(left + cx * cw + 1, bottom - (cy + 1) * ch + 1), b(left + (cx + 1) * cw - 1, bottom - cy * ch - 1);
            ImU32 colour = palette::kPlotBackground;
            if (cell.best >= 0) {
                // Fast is bright green, slow a dim blue: the eye finds the winner's corner at once.
                const double t = high > low ? (results[cell.best].median_ms - low) / (high - low) : 0;
                colour = IM_COL32(static_cast<int>(60 + 30 * t), static_cast<int>(210 - 140 * t), static_cast<int>(110 + 60 * t), 255);
            } else if (cell.wrong) colour = IM_COL32(150, 50, 50, 255);
            else if (cell.failed) colour = IM_COL32(150, 100, 40, 255);
            else if (cell.pruned) colour = IM_COL32(62, 62, 66, 255);
            draw->AddRectFilled(a, b, colour);
            if (cell.total) ++state.sweep_ui.plotted;
            if (best && cell.total && results[*best].point.values[state.sweep_ui.x_param] == x.values[cx] &&
                results[*best].point.values[state.sweep_ui.y_param] == y.values[cy])
                draw->AddRect(a, b, kBest, 0, 0, 2.5f);
            char text[32] = "";
            if (cell.best >= 0) std::snprintf(text, sizeof text, "%.3g", results[cell.best].median_ms);
            else if (cell.wrong) std::snprintf(text, sizeof text, "wrong");
            else if (cell.failed) std::snprintf(text, sizeof text, "failed");
            else if (cell.pruned) std::snprintf(text, sizeof text, "pruned");
            const ImVec2 t = ImGui::CalcTextSize(text);
            if (t.x + 4 < cw && t.y < ch) draw->AddText(ImVec2((a.x + b.x - t.x) / 2, (a.y + b.y - t.y) / 2), IM_COL32(235, 235, 235, 255), text);
            if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y && cell.total) {
                char counts[128];
                std::snprintf(counts, sizeof counts, "\n%d points here: %d wrong, %d failed, %d pruned", cell.total, cell.wrong, cell.failed, cell.pruned);
                hovered = (cell.best >= 0 ? "fastest here: " + describe(results[cell.best]) : x.name + "=" + x.values[cx] + " " + y.name + "=" + y.values[cy]) + counts;
                state.sweep_ui.hovered = cell.best >= 0 ? results[cell.best].label : "";
            }
        }
        const std::string label = y.values[cy];
        draw->AddText(ImVec2(origin.x + 4, bottom - (cy + 0.5f) * ch - ImGui::GetTextLineHeight() / 2), palette::kAxisText, label.c_str());
    }
    for (size_t cx = 0; cx < nx; ++cx) {
        const std::string label = x.values[cx];
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        if (cw > w + 2) draw->AddText(ImVec2(left + (cx + 0.5f) * cw - w / 2, bottom + 4), palette::kAxisText, label.c_str());
    }
    const std::string axes = y.name + " (rows) x " + x.name + " (columns): the fastest correct median (ms) in each cell; white: the best";
    draw->AddText(ImVec2(left, origin.y), palette::kAxisText, axes.c_str());
    if (!hovered.empty()) ImGui::SetTooltip("%s", hovered.c_str());
}

void draw_plot(AppState& state, const Sweep& sweep, float height) {
    const auto& params = sweep.target().space.params;
    SweepUiState& ui = state.sweep_ui;
    ui.x_param = std::clamp(ui.x_param, 0, static_cast<int>(params.size()) - 1);
    if (ui.y_param >= static_cast<int>(params.size()) || ui.y_param == ui.x_param) ui.y_param = -1;
    ImGui::PushItemWidth(140 * state.content_scale);
    if (ImGui::BeginCombo("x axis", params[ui.x_param].name.c_str())) {
        for (int i = 0; i < static_cast<int>(params.size()); ++i)
            if (ImGui::Selectable(params[i].name.c_str(), i == ui.x_param)) ui.x_param = i;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::BeginCombo("heatmap rows", ui.y_param < 0 ? "none (time plot)" : params[ui.y_param].name.c_str())) {
        if (ImGui::Selectable("none (time plot)", ui.y_param < 0)) ui.y_param = -1;
        for (int i = 0; i < static_cast<int>(params.size()); ++i)
            if (i != ui.x_param && ImGui::Selectable(params[i].name.c_str(), i == ui.y_param)) ui.y_param = i;
        ImGui::EndCombo();
    }
    ImGui::PopItemWidth();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), palette::kPlotBackground);
    draw->AddRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), palette::kBorder);
    ImGui::InvisibleButton("sweep_plot", size);
    ui.plot_rect = {origin.x, origin.y, size.x, size.y};
    ui.hovered.clear();
    if (ui.y_param >= 0) {
        ui.plot_kind = "heatmap";
        draw_heatmap(state, sweep, origin, size, draw);
    } else {
        ui.plot_kind = "scatter";
        draw_scatter(state, sweep, origin, size, draw);
    }
}

void draw_best(AppState& state, const Sweep& sweep) {
    SweepSession& sweeps = state.sweeps;
    const std::string summary = best_summary(sweep);
    wrapped_colored(sweep.best() ? kPassText : palette::kFailText, "%s", summary.c_str());
    if (!sweep.best() || !sweep.finished()) return;
    if (ImGui::Button("Apply best to the launch")) {
        sweeps.apply_to_launch(state.session);
        state.say(sweeps.notice());
    }
    ImGui::SameLine();
    if (ImGui::Button("Write it into the file...")) {
        if (sweeps.preview_file_edit()) {
            ImGui::OpenPopup("Write the best point into the file");
        } else {
            state.say(sweeps.problem().empty() ? sweeps.notice() : sweeps.problem());
        }
    }
    if (ImGui::BeginPopupModal("Write the best point into the file", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        // The edit the button made: the file is read once, not again every frame the preview is open.
        if (const auto& edit = sweeps.preview()) {
            ImGui::Text("kplay changes only the annotation line of %s, and keeps the original as %s.orig (once):",
                        sweep.target().file.filename().string().c_str(), sweep.target().file.filename().string().c_str());
            if (state.code_font) ImGui::PushFont(state.code_font);
            ImGui::TextColored(palette::kFailText, "- %s", edit->before.c_str());
            ImGui::TextColored(kPassText, "+ %s", edit->after.c_str());
            if (state.code_font) ImGui::PopFont();
        }
        if (ImGui::Button("Write")) {
            sweeps.write_file_edit(state.session);
            state.say(sweeps.problem().empty() ? sweeps.notice() : sweeps.problem());
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) {
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

// One point's row: its colour says its state; the best is starred.
void draw_row(const PointResult& r, bool is_best) {
    ImGui::TableNextRow();
    const ImVec4 colour = r.state == PointState::passed ? (is_best ? kPassText : ImGui::GetStyleColorVec4(ImGuiCol_Text))
                          : r.state == PointState::wrong ? palette::kFailText
                          : r.state == PointState::failed ? kFailedText : kPrunedText;
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(((is_best ? "* " : "") + r.label).c_str());
    ImGui::TableNextColumn();
    if (timed(r)) ImGui::Text("%.4f", r.median_ms);
    ImGui::TableNextColumn();
    if (timed(r)) ImGui::Text("%.4f - %.4f", r.min_ms, r.max_ms);
    ImGui::TableNextColumn();
    if (r.percent_of_ceiling > 0) ImGui::Text("%.1f%%", r.percent_of_ceiling);
    ImGui::TableNextColumn();
    if (r.registers > 0) ImGui::Text("%d / %.0f%%", r.registers, 100 * std::max(0.0, r.occupancy));
    ImGui::TableNextColumn();
    if (r.confirmed_ms > 0)
        ImGui::Text("%.4f (%.1f%%)%s%s", r.confirmed_ms, 100 * r.spread, r.noisy ? " noisy" : "", r.unsteady.empty() ? "" : " unsteady");
    ImGui::TableNextColumn();
    const std::string check = r.state == PointState::passed ? std::string(r.from_cache ? "PASS (cached)" : "PASS")
                                                            : std::string(point_state_name(r.state)) + ": " + r.reason;
    ImGui::TextUnformatted(check.c_str());
    if (ImGui::IsItemHovered() && !r.reason.empty()) ImGui::SetTooltip("%s", r.reason.c_str());
    ImGui::PopStyleColor();
}

void draw_table(AppState& state, const Sweep& sweep) {
    const auto& results = sweep.results();
    const auto best = sweep.best();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("sweep_points", 7, flags, ImGui::GetContentRegionAvail())) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("point", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("median ms", ImGuiTableColumnFlags_WidthFixed, 80 * state.content_scale);
    ImGui::TableSetupColumn("min - max", ImGuiTableColumnFlags_WidthFixed, 130 * state.content_scale);
    ImGui::TableSetupColumn("% ceiling", ImGuiTableColumnFlags_WidthFixed, 70 * state.content_scale);
    ImGui::TableSetupColumn("regs / occ", ImGuiTableColumnFlags_WidthFixed, 80 * state.content_scale);
    ImGui::TableSetupColumn("confirmed (spread)", ImGuiTableColumnFlags_WidthFixed, 170 * state.content_scale);
    ImGui::TableSetupColumn("check", ImGuiTableColumnFlags_WidthStretch, 2.4f);
    ImGui::TableHeadersRow();
    SweepUiState& ui = state.sweep_ui;
    // Every change to the points adds one or finishes a run; a new sweep is another object.
    const std::tuple<const void*, size_t, int> key{&sweep, results.size(), sweep.runs_done()};
    if (ui.row_order_key != key || ui.row_order.size() != results.size()) {
        ui.row_order = display_order(results);
        ui.row_order_key = key;
    }
    // Only the rows in view are drawn: an exhaustive sweep may hold thousands of points.
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(ui.row_order.size()));
    while (clipper.Step())
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row)
            draw_row(results[ui.row_order[row]], best && *best == ui.row_order[row]);
    ImGui::EndTable();
}

}  // namespace

void draw_sweep_panel(AppState& state) {
    SweepSession& sweeps = state.sweeps;
    if (state.sweep_ui.suggested_for != state.session.file() && !sweeps.running()) {
        sweeps.suggest(state.session.source(), state.session.spec());
        state.sweep_ui.suggested_for = state.session.file();
    }
    draw_controls(state);
    if (!sweeps.problem().empty()) wrapped_colored(palette::kFailText, "%s", sweeps.problem().c_str());
    const Sweep* sweep = sweeps.sweep();
    if (!sweep) {
        ImGui::Spacing();
        wrapped_disabled("Every point is compiled, checked at the task's test sizes and a second seed, then timed; a point that fails its "
                         "check is red and can never win. The fastest points are then re-timed, interleaved, to confirm the winner. "
                         "Names: block_x, block_y, block_z, the annotation's literals (tw), -DNAME defines and the task's sizes; "
                         "restrictions may use threads_max, smem_max, regs_max, sms and warp_size.");
        return;
    }
    draw_progress(state, *sweep);
    if (sweeps.on_pool() || sweep->workers().size() > 1) draw_workers(state, *sweep);
    const float rest = ImGui::GetContentRegionAvail().y;
    draw_plot(state, *sweep, std::max(140.0f * state.content_scale, rest * 0.42f));
    draw_best(state, *sweep);
    draw_table(state, *sweep);
}

}  // namespace kplay::window
