// The window's scripted actions. Each goes through the path its click or gesture takes, so what a test
// sees is what a user gets.
#include "test_hooks.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "panels.hpp"
#include "state_dump.hpp"

namespace kplay::window {

TestHooks::TestHooks(TestHookOptions options, bool at_current_sizes)
    : options_(std::move(options)), at_current_sizes_(at_current_sizes) {}

void TestHooks::set_up(AppState& state) const {
    if (options_.tab == "inside") state.requested_tab = 1;
    if (options_.tab == "sweep") state.requested_tab = 2;
    if (options_.tab == "debug") state.requested_tab = 3;
    if (options_.tab == "compare") state.requested_tab = 4;
    state.inside.selected_line = std::max(0, options_.select_line);
    state.inside.scroll_pending = options_.select_line > 0;
    if (options_.diff_against == "previous")
        state.inside.diff_against = -1;
    else if (!options_.diff_against.empty())
        state.inside.diff_against = std::max(0, std::atoi(options_.diff_against.c_str()));
    if (!options_.test_writers.empty()) {
        state.writers.mode = options_.test_writers == "edges"    ? TilingOverlay::edges
                             : options_.test_writers == "blocks" ? TilingOverlay::blocks
                                                                 : TilingOverlay::off;
        state.session.show_writers(true);  // as the checkbox: each result is mapped as it comes
    }
    if (!options_.test_hover.empty() &&
        std::sscanf(options_.test_hover.c_str(), "%d,%d", &state.writers.test_hover_x, &state.writers.test_hover_y) != 2) {
        std::fprintf(stderr, "kplay: --test-hover %s: expected \"X,Y\"\n", options_.test_hover.c_str());
        state.writers.test_hover_x = state.writers.test_hover_y = -1;
    }
}

void TestHooks::before_update(AppState& state) {
    const KernelSession& session = state.session;
    SweepSession& sweeps = state.sweeps;
    if (options_.sweep_items.empty() || session.results_received() == 0 || !session.devices_known()) return;
    if (state.pool.starting()) return;  // --pool's sweep runs on the pool, once it is up
    // The items as the Sweep tab's box would hold them, then its Start.
    sweeps.text = options_.sweep_items;  // one line of ';'-separated items, as a kplay-sweep line reads
    state.sweep_ui.suggested_for = session.file();
    if (start_window_sweep(state, at_current_sizes_)) {
        state.sweep_ui.at_current_sizes = at_current_sizes_;
        state.sweep_ui.x_param = 0;
        state.sweep_ui.y_param = sweeps.sweep()->target().space.params.size() >= 2 ? 1 : -1;
    } else {
        std::fprintf(stderr, "kplay: --sweep: %s\n", sweeps.problem().c_str());
    }
    options_.sweep_items.clear();
}

void TestHooks::compare_after_result(AppState& state) {
    if (!options_.compare || state.session.results_received() == 0 || state.pool.starting()) return;
    if (!start_window_compare(state)) std::fprintf(stderr, "kplay: --compare: %s\n", state.compare.problem().c_str());
    options_.compare = false;
}

void TestHooks::debug_after_result(AppState& state) {
    if (options_.test_debug.empty() || state.session.results_received() == 0) return;
    start_debug(state);
    options_.test_debug.clear();
    debug_pending_ = true;
}

// "1,0,0 5,0,0 15 1": the block, the thread, the line and the steps after the first stop.
bool TestHooks::start_debug(AppState& state) {
    std::istringstream words(options_.test_debug);
    std::string block, thread;
    int line = 0, steps = 0;
    words >> block >> thread >> line >> steps;
    auto index = [](const std::string& text, std::array<int, 3>& into) {
        into = {0, 0, 0};
        return std::sscanf(text.c_str(), "%d,%d,%d", &into[0], &into[1], &into[2]) >= 1;
    };
    if (!index(block, state.debug.block) || !index(thread, state.debug.thread) || line <= 0) {
        std::fprintf(stderr, "kplay: --test-debug %s: expected \"BLOCK THREAD LINE [STEPS]\"\n", options_.test_debug.c_str());
        return false;
    }
    state.debug.line = line;
    state.debug.steps_requested = std::max(0, steps);
    state.requested_tab = 3;
    start_debug_run(state);
    return true;
}

void TestHooks::drop_files(GLFWwindow* window, const KernelSession& session, GLFWdropfun on_drop) {
    if (options_.test_drops.empty() || session.results_received() == 0) return;
    std::vector<const char*> paths;
    for (const auto& path : options_.test_drops) paths.push_back(path.c_str());
    on_drop(window, static_cast<int>(paths.size()), paths.data());
    options_.test_drops.clear();
}

void TestHooks::after_render(AppState& state, int width, int height) {
    KernelSession& session = state.session;
    if (options_.profile && session.can_profile()) {
        session.profile_last_run();
        options_.profile = false;
    }
    const bool settled = session.results_received() > 0 && !session.inspector().busy() &&
                         !session.finding_fault_line() && !session.profiling() &&
                         !(options_.profile && session.can_profile()) && !state.sweeps.running() &&
                         options_.sweep_items.empty() && options_.test_debug.empty() && !options_.compare &&
                         !state.compare.running() &&
                         !(debug_pending_ && (state.debug.work.running() || state.debug.steps_requested > 0)) &&
                         !(session.showing_writers() &&
                           (session.mapping_writers() || (!session.writer_map() && session.writers_problem().empty())));
    if (frames_since_result_ < 0 && settled) frames_since_result_ = 0;
    if (frames_since_result_ >= 0) ++frames_since_result_;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    screenshot_due_ =
        !options_.screenshot.empty() && (frames_since_result_ >= options_.frames_after_result || elapsed > 120);
    if (screenshot_due_) write_screenshot(options_.screenshot, width, height);
}

bool TestHooks::after_frame(const AppState& state) {
    if (!options_.dump_state.empty() && (ImGui::GetTime() - last_dump_ > 0.2 || screenshot_due_)) {
        write_state_dump(state, options_.dump_state);
        last_dump_ = ImGui::GetTime();
    }
    return screenshot_due_;
}

void TestHooks::at_exit(const AppState& state) const {
    if (!options_.dump_state.empty()) write_state_dump(state, options_.dump_state);
}

}  // namespace kplay::window
