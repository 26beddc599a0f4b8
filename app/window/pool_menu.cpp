// Device > Pool: the pool's members typed as --pool takes them, Start and Stop, its groups and the
// members that did not come up, the group the Sweep tab's sweeps run on, and the compare across them all. Also the glue that lends
// that group's workers to a sweep and takes them back when it is over.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "panels.hpp"
#include "plot_palette.hpp"
#include "sweep_workers_model.hpp"

namespace kplay::window {

void draw_pool_menu(AppState& state) {
    PoolSession& pool = state.pool;
    if (!ImGui::BeginMenu("Pool")) return;
    ImGui::TextDisabled("members, comma-separated, as kplay-cli's --pool takes them:");
    ImGui::TextDisabled("local, local:N, ssh:HOST, slurm[:PARTITION][ xN], cmd:COMMAND");
    ImGui::SetNextItemWidth(420 * state.content_scale);
    ImGui::InputText("##pool_spec", &pool.spec);
    const bool busy = pool.starting() || pool.lent();
    if (busy) ImGui::BeginDisabled();
    if (ImGui::Button(pool.pool() ? "Start again" : "Start pool") && !pool.start()) state.say(pool.problem());
    if (pool.pool()) {
        ImGui::SameLine();
        if (ImGui::Button("Stop pool")) pool.stop();
    }
    if (busy) ImGui::EndDisabled();
    if (pool.lent()) ImGui::TextDisabled("a sweep is using the pool");
    if (pool.starting())
        ImGui::TextDisabled("starting %s: each member comes up side by side...", pool.started_spec.c_str());
    if (!pool.problem().empty()) ImGui::TextColored(palette::kFailText, "%s", pool.problem().c_str());
    if (const WorkerPool* started = pool.pool()) {
        const std::optional<size_t> group = pool.sweep_group();
        ImGui::Separator();
        const size_t workers = started->workers().size(), groups = started->groups().size();
        ImGui::Text("%s: %zu worker%s in %zu group%s", pool.started_spec.c_str(), workers, workers == 1 ? "" : "s",
                    groups, groups == 1 ? "" : "s");
        const std::vector<std::string> lines = pool_lines(*started, group ? static_cast<int>(*group) + 1 : 0);
        for (size_t i = 0; i < lines.size(); ++i) {
            if (i < started->groups().size()) {
                // Choosing a group: the Sweep tab's next sweep runs on its workers.
                if (ImGui::MenuItem(lines[i].c_str(), nullptr, group && *group == i, !pool.lent()))
                    pool.chosen_group = static_cast<int>(i) + 1;
            } else {
                ImGui::TextColored(palette::kFailText, "%s", lines[i].c_str());
            }
        }
        ImGui::TextDisabled("the Sweep tab's sweeps run on the checked group; times are never compared across groups");
        // Every group at once, a column each in the Compare tab.
        if (ImGui::MenuItem("Compare across the pool's groups", nullptr, false, !pool.lent() && !state.compare.running()) &&
            !start_window_compare(state))
            state.say(state.compare.problem());
    }
    ImGui::EndMenu();
}

bool start_window_sweep(AppState& state, bool at_current_sizes) {
    SweepStart start = sweep_start_from(state.session, at_current_sizes);
    std::optional<LentGroup> group = state.pool.lend_group();
    if (!group) return state.sweeps.start(start);
    // The group's own devices, as its first worker answered: the sweep's limits are that device's.
    start.devices = group->devices;
    start.emulate = group->emulated;
    start.ordinal = 0;
    const bool started = state.sweeps.start(start, std::move(group->workers));
    if (!started) state.pool.give_back(state.sweeps.take_back_pool_workers());
    return started;
}

void update_pool(AppState& state) {
    state.pool.update();
    if (!state.pool.lent()) return;
    std::vector<std::unique_ptr<WorkerClient>> clients = state.sweeps.take_back_pool_workers();
    if (!clients.empty()) state.pool.give_back(std::move(clients));
}

}  // namespace kplay::window
