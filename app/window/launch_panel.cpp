// Launch settings: block, grid (auto shows the computed grid), dynamic shared memory, the kernel's
// literal arguments and -D defines. Problems are flagged inline before anything is launched; below,
// the kernel's resources and how the launch covers the data.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cstdio>

#include "base/text.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"

namespace kplay::window {

namespace {

const ImVec4 kRed(0.95f, 0.35f, 0.35f, 1);

// Three integer fields in one row; returns true while a value changes (applied when editing ends).
bool dims_row(const char* label, std::array<int64_t, 3>& values) {
    int v[3] = {static_cast<int>(values[0]), static_cast<int>(values[1]), static_cast<int>(values[2])};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    const bool changed = ImGui::InputInt3(label, v);
    if (changed) values = {v[0], v[1], v[2]};
    return changed;
}

}  // namespace

void draw_launch_panel(AppState& state) {
    KernelSession& session = state.session;
    LaunchOverrides& overrides = session.overrides;
    const auto& last = session.last();
    const bool have_launch = last && reached(*last, Stage::launch);
    bool apply = false;

    std::array<int64_t, 3> block = overrides.block ? *overrides.block
                                   : have_launch   ? std::array<int64_t, 3>{last->launch.block.x, last->launch.block.y, last->launch.block.z}
                                                   : std::array<int64_t, 3>{256, 1, 1};
    if (dims_row("block x,y,z", block)) {
        overrides.block = block;
    }
    if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;

    bool auto_grid = !overrides.grid;
    if (ImGui::Checkbox("auto grid", &auto_grid)) {
        if (auto_grid) overrides.grid.reset();
        else overrides.grid = have_launch ? std::array<int64_t, 3>{last->launch.grid.x, last->launch.grid.y, last->launch.grid.z}
                                          : std::array<int64_t, 3>{1, 1, 1};
        apply = true;
    }
    ImGui::SameLine();
    if (auto_grid) {
        // Not overridden: the auto grid, or the grid the annotation computes.
        if (have_launch && (last->launch.auto_grid || !last->spec))
            wrapped_disabled("= %s (cdiv(extent, block))", last->launch.grid.text().c_str());
        else if (have_launch)
            wrapped_disabled("= %s (the annotation's grid=%s)", last->launch.grid.text().c_str(), join(last->spec->grid, ", ").c_str());
    } else {
        std::array<int64_t, 3> grid = *overrides.grid;
        if (dims_row("grid x,y,z", grid)) overrides.grid = grid;
        if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
    }

    int smem = static_cast<int>(overrides.smem ? *overrides.smem : have_launch ? last->launch.dynamic_smem : 0);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::InputInt("dynamic smem (bytes)", &smem, 1024, 4096)) overrides.smem = smem;
    if (ImGui::IsItemDeactivatedAfterEdit()) apply = true;
    // A task of several kernels: the settings above are the first launch's; the rest follow the file.
    if (have_launch)
        for (const auto& then : last->following)
            wrapped_disabled("then %s <<<%s, %s>>> (kplay-launch)", then.kernel.c_str(), then.launch.grid.text().c_str(),
                                then.launch.block.text().c_str());

    // Literal arguments from the annotation (e.g. tw=16), editable.
    if (session.spec()) {
        for (const auto& arg : session.spec()->args) {
            const auto equals = arg.find('=');
            if (equals == std::string::npos) continue;
            const std::string name = arg.substr(0, equals);
            std::string value = overrides.args.count(name) ? overrides.args[name] : arg.substr(equals + 1);
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
            if (ImGui::InputText(("arg " + name).c_str(), &value, ImGuiInputTextFlags_EnterReturnsTrue)) {
                overrides.args[name] = value;
                apply = true;
            }
        }
    }
    static std::string defines_text;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    if (ImGui::InputTextWithHint("-D defines", "NAME=VALUE OTHER", &defines_text, ImGuiInputTextFlags_EnterReturnsTrue)) {
        overrides.defines.clear();
        size_t at = 0;
        while (at < defines_text.size()) {
            const size_t end = defines_text.find(' ', at);
            const std::string item = defines_text.substr(at, end == std::string::npos ? std::string::npos : end - at);
            if (!item.empty()) {
                const auto equals = item.find('=');
                overrides.defines.emplace_back(item.substr(0, equals), equals == std::string::npos ? "" : item.substr(equals + 1));
            }
            if (end == std::string::npos) break;
            at = end + 1;
        }
        apply = true;  // a define changes the source NVRTC sees: this recompiles
    }
    if (ImGui::Button("Use the annotation's settings")) {
        overrides = {};
        defines_text.clear();
        apply = true;
    }
    ImGui::SameLine();
    // The kernel with these settings, for a PyTorch notebook (the same text as kplay-cli export --torch).
    if (ImGui::Button("Copy as PyTorch")) state.say(copy_as_pytorch(session), 10);

    const auto problems = session.launch_problems();
    for (const auto& problem : problems) wrapped_colored(kRed, "%s", problem.c_str());
    if (last && last->stage == Stage::launch && !last->error.empty()) wrapped_colored(kRed, "%s", last->error.c_str());
    if (apply && problems.empty()) session.apply_settings();

    if (have_launch) {
        ImGui::Separator();
        const auto& f = last->function;
        const RunInspection* inspected = state.session.inspector().current();
        if (last->emulated && inspected && inspected->inspection.resources.found) {
            // The emulated device has no registers, but ptxas says what a GPU of that arch would use.
            const KernelInspection& k = inspected->inspection;
            const std::string occupancy = k.occupancy ? ", occupancy " + std::to_string(static_cast<int>(100 * k.occupancy->fraction + 0.5)) + "%" : "";
            wrapped_disabled("%s (ptxas): %d registers/thread, %d B static smem, %d B spills%s", k.arch.c_str(), k.resources.registers,
                             k.resources.static_smem_bytes, k.resources.spill_store_bytes + k.resources.spill_load_bytes, occupancy.c_str());
        } else if (last->emulated) {
            // Registers and occupancy belong to a GPU's compiler and SMs; the emulated device has neither.
            wrapped_disabled("emulated: no registers or occupancy; CUDA's launch limits apply");
        } else {
            ImGui::Text("%d registers/thread, %d B static smem, %d B local (spills)", f.registers_per_thread, f.static_smem_bytes,
                        f.local_bytes_per_thread);
            ImGui::Text("occupancy %.0f%% (%d blocks/SM, theoretical), max %d threads/block", 100 * last->occupancy.fraction,
                        last->occupancy.blocks_per_sm, f.max_threads_per_block);
        }
        ImGui::Text("%lld threads for %lld elements", static_cast<long long>(last->coverage.threads),
                    static_cast<long long>(last->coverage.elements));
        ImGui::TextWrapped("%s", last->coverage.note().c_str());
    }
}

}  // namespace kplay::window
