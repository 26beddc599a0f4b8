// The window's scripted actions (window_options.hpp's TestHookOptions), taken at their places in the
// frame loop: what the matching clicks would do, once the first result is in, then a screenshot once
// everything that follows a result has settled, and the state dump all along.
#pragma once

#include <GLFW/glfw3.h>

#include <chrono>

#include "app_state.hpp"
#include "window_options.hpp"

namespace kplay::window {

class TestHooks {
public:
    // `at_current_sizes`: a --sweep runs at the sizes given on the command line rather than the bench sizes.
    TestHooks(TestHookOptions options, bool at_current_sizes);

    // Before the first frame: --tab, --select-line, --diff-against.
    void set_up(AppState& state) const;
    // Before the session's update: --sweep, as the Sweep tab's Start, once the first result and the
    // devices are in.
    void before_update(AppState& state);
    // Before the session's update: --compare, as the Compare tab's button, once the first result is in and
    // the pool is up.
    void compare_after_result(AppState& state);
    // Before the session's update: --test-debug, as the Debug tab's Run to line, once the first result is in.
    void debug_after_result(AppState& state);
    // After the session's update: --test-drop, through the callback GLFW calls for a real drop.
    void drop_files(GLFWwindow* window, const KernelSession& session, GLFWdropfun on_drop);
    // After the frame is rendered, before it is shown: --profile, then --screenshot of the framebuffer
    // (width x height) once the inspection, a fault's line, a profile and a sweep are done too.
    void after_render(AppState& state, int width, int height);
    // After the frame is shown: --dump-state. Returns whether the window closes (the screenshot is written).
    bool after_frame(const AppState& state);
    // At exit: the last --dump-state.
    void at_exit(const AppState& state) const;

private:
    TestHookOptions options_;
    bool at_current_sizes_;
    int frames_since_result_ = -1;  // counted from the first frame with everything settled
    bool screenshot_due_ = false;
    bool debug_pending_ = false;  // --test-debug started: the screenshot waits for its stops
    bool start_debug(AppState& state);
    double last_dump_ = 0;  // ImGui time
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

}  // namespace kplay::window
