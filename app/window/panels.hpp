// The window's panels: one draw function per panel, each in its own file, all over the shared AppState.
#pragma once

#include <vector>

#include "app_state.hpp"

namespace kplay::window {

struct KeyPress {
    int key;   // GLFW key code
    int mods;  // GLFW modifier bits
};
void draw_menu_bar(AppState& state, const std::vector<KeyPress>& presses);  // menu_bar.cpp (also shortcuts, Help)
void draw_status_bar(AppState& state);         // status_bar.cpp: file, progress, errors, device banner
void draw_kernel_panel(AppState& state);       // kernel_panel.cpp: picker, path box
void draw_launch_panel(AppState& state);       // launch_panel.cpp: block, grid, smem, args, defines, resources
void draw_inputs_panel(AppState& state);       // inputs_panel.cpp: image or matrix sizes, repeats
void draw_results_panel(AppState& state);      // results_panel.cpp: timings, throughput, verdict
void draw_diagnostics_panel(AppState& state);  // diagnostics_panel.cpp
void draw_printf_panel(AppState& state);       // printf_panel.cpp: the emulated device's printf lines and warnings
void draw_history_panel(AppState& state);      // history_panel.cpp: plot, compare, export
void draw_images_panel(AppState& state);       // images_panel.cpp: input | output | difference, or error map
void draw_inside_panel(AppState& state);       // inside_panel.cpp: source | PTX | SASS linked by line, resources
void draw_sweep_panel(AppState& state);        // sweep_panel.cpp: the space, progress, plot, table, apply best
void draw_debug_panel(AppState& state);        // debug_panel.cpp: one CUDA thread under gdb: line, locals, shared, Step
void draw_pool_menu(AppState& state);          // pool_menu.cpp: Device > Pool: the spec, Start, its groups
void draw_compare_panel(AppState& state);      // compare_panel.cpp: the file on every pool group, a column each
// compare_panel.cpp: the Compare tab's start, over every group of the pool; false (the reason in
// state.compare.problem()) if it cannot start. Opens the tab.
bool start_window_compare(AppState& state);
// compare_panel.cpp, per frame: takes in the groups benched, and the workers back into the pool at the end.
void update_compare(AppState& state);
// pool_menu.cpp: a sweep of the open file as the Sweep tab's Start makes it: on the pool's chosen group
// when a pool is up, else on the sweep's own worker. False (the reason in state.sweeps.problem()) if not.
bool start_window_sweep(AppState& state, bool at_current_sizes);
// pool_menu.cpp, per frame: takes in a pool that came up, and a finished sweep's workers back into it.
void update_pool(AppState& state);
// debug_panel.cpp: starts a debug run of the session's file at the Debug tab's block, thread and line.
void start_debug_run(AppState& state);

}  // namespace kplay::window
