// What the window's command line asks for: the kernel and its inputs, where kernels run, and the
// scripted actions that tests and scripts drive the window with (test_hooks.hpp carries them out).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kplay::window {

// Actions taken once the first result is in, as the matching clicks would take them.
struct TestHookOptions {
    std::string screenshot;  // the window as PNG, `frames_after_result` frames after the results settle; then exit
    int frames_after_result = 10;
    std::string dump_state;               // what the window shows, as JSON, kept up to date
    std::string tab;                      // the tab opened on the right: output, inside, sweep, debug or compare
    std::string sweep_items;              // a sweep started after the first result (a kplay-sweep line's items)
    bool compare = false;                 // the compare across the pool's groups, once the pool is up
    int select_line = 0;                  // the source line selected in the Inside tab (0: none)
    std::string diff_against;             // the Inside tab's diff: "previous" or a run number
    bool find_fault = false;              // look for a GPU fault's line at once
    bool profile = false;                 // profile the first good GPU run
    std::vector<std::string> test_drops;  // paths dropped on the window after the first result
    std::string test_debug;               // "BLOCK THREAD LINE [STEPS]": the Debug tab's Run to line, then Steps
    std::string test_writers;             // "Who wrote each pixel" on from the start, with this overlay: off, blocks or edges
    std::string test_hover;               // "X,Y": the output view's pixel taken as hovered
};

struct WindowOptions {
    std::string file, image, size;
    double timeout = 5;
    std::string remote, remote_command;
    std::vector<std::string> pool;  // --pool: started at once, and sweeps run on its group
    bool emulated = false, thorough = false;
    TestHookOptions hooks;
};

// Reads the command line into `options`. Returns the exit status when the program ends here (--help,
// or an option it cannot read, with CLI11's message), nothing when the window opens.
std::optional<int> parse_window_options(int argc, char** argv, WindowOptions& options);

}  // namespace kplay::window
