// The window's command line, read with CLI11. The option texts are what `kplay --help` prints.
#include "window_options.hpp"

#include <CLI/CLI.hpp>

#include "kplay_version.hpp"

namespace kplay::window {

std::optional<int> parse_window_options(int argc, char** argv, WindowOptions& options) {
    CLI::App app{
        "kplay: a live-reload CUDA kernel playground. Edit the kernel file in your editor; every save runs it.", "kplay"};
    app.set_version_flag("--version", kplay::version_line("kplay"), "Print the version and the git commit, then exit");
    app.add_option("FILE", options.file, "Kernel file (.cu); default: the last one, or the seed grayscale kernel");
    app.add_option("--image", options.image, "Input image (PNG or JPEG), RGB or grayscale as the task reads it; default: the built-in image");
    app.add_option("--size", options.size,
                   "The task's sizes: one value per size name (1000x999x1001), NAME=VALUE pairs, or one value for all");
    app.add_option("--timeout", options.timeout, "Stop a kernel after this many seconds")->check(CLI::PositiveNumber);
    auto* remote_option =
        app.add_option("--remote", options.remote,
                       "Run kernels on a GPU machine over ssh: [user@]host[:port] (see README, \"A GPU elsewhere\")");
    app.add_option("--remote-command", options.remote_command,
                   "Run kernels on a worker reached by this command (its stdin/stdout carry the protocol)")
        ->excludes(remote_option);
    app.add_option("--pool", options.pool,
                   "Start a pool of workers at once (as Device > Pool does; kplay-cli's --pool syntax: local, local:N, ssh:HOST, "
                   "slurm[:PARTITION][ xN], cmd:COMMAND): the Sweep tab's sweeps run on its group")
        ->allow_extra_args(false);
    app.add_flag("--emulated", options.emulated, "Run on the emulated CPU device even when there is a GPU");
    app.add_flag("--thorough", options.thorough, "Run on the emulated CPU device with AddressSanitizer and UBSan");
    TestHookOptions& hooks = options.hooks;
    app.add_option("--screenshot", hooks.screenshot,
                   "Write the window as PNG after --frames frames following the first result, then exit");
    app.add_option("--frames", hooks.frames_after_result,
                   "Frames to render after the first result before the screenshot");
    app.add_option("--dump-state", hooks.dump_state,
                   "Keep writing what the window shows as JSON to this file (and at exit)");
    app.add_option("--tab", hooks.tab,
                   "Open this tab on the right: output, inside (source | PTX | SASS), sweep, debug or compare")
        ->check(CLI::IsMember({"output", "inside", "sweep", "debug", "compare"}));
    app.add_option("--sweep", hooks.sweep_items,
                   "Start a sweep of the file after its first result, over these items (as a kplay-sweep line: "
                   "\"block_x=32..1024 step *2; restrict ...\"), as the Sweep tab's Start does");
    app.add_flag("--compare", hooks.compare,
                 "With --pool: bench the file on every group of the pool once it is up and the first result is in, a "
                 "column per group in the Compare tab (as its Compare button does)");
    app.add_option("--select-line", hooks.select_line,
                   "Select this source line in the Inside tab, as a click would (its PTX and SASS light up)");
    app.add_option("--diff-against", hooks.diff_against,
                   "The Inside tab's listings as a diff against: previous (the text before), or a run number");
    app.add_flag("--find-fault", hooks.find_fault,
                 "After a GPU fault, look for its line at once (as the setting does)");
    app.add_flag("--profile", hooks.profile,
                 "Profile the first good GPU run with Nsight Compute (as the Profile button does)");
    app.add_option("--test-drop", hooks.test_drops,
                   "For tests: after the first result, drop these paths on the window (through GLFW's drop callback)")
        ->group("");
    app.add_option("--test-debug", hooks.test_debug,
                   "For tests: after the first result, the Debug tab's Run to line at \"BLOCK THREAD LINE [STEPS]\" "
                   "(\"1,0,0 5,0,0 15 1\"), then STEPS Steps")
        ->group("");
    app.add_option("--test-writers", hooks.test_writers,
                   "For tests: \"Who wrote each pixel\" on from the start, with this overlay: off, blocks or edges")
        ->check(CLI::IsMember({"off", "blocks", "edges"}))
        ->group("");
    app.add_option("--test-hover", hooks.test_hover, "For tests: the output view's pixel \"X,Y\" taken as hovered (a series: element X)")->group("");
    CLI11_PARSE(app, argc, argv);
    return std::nullopt;
}

}  // namespace kplay::window
