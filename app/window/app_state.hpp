// Everything the window's panels share: the session, the image views and the UI-only state.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "frame_stats.hpp"
#include "loop_trace.hpp"
#include "session/background.hpp"
#include "session/debug_session.hpp"
#include "image_views.hpp"
#include "session/kernel_session.hpp"
#include "session/compare_session.hpp"
#include "session/pool_session.hpp"
#include "session/sweep_session.hpp"
#include "series_view.hpp"
#include "writers_view.hpp"

struct ImFont;

namespace kplay::window {

// The Inside panel's UI state: the source line hovered or selected (its PTX and SASS are highlighted),
// what the listings are diffed against, and what it drew (for the tests and the state dump).
struct InsideState {
    int hovered_line = 0;   // this frame's (0: none)
    int shown_hover = 0;    // last frame's, which this frame highlights
    int selected_line = 0;  // clicked; the other panes scroll to it once
    bool scroll_pending = false;
    int clicked_pane = -1;  // the pane the selection came from (it does not scroll)
    int highlighted_line = 0;
    int diff_against = 0;   // 0: the listings themselves; -1: the previous text; N > 0: run N
    // The diff shown, kept while its two inspections are the same (diffing a large SASS per frame is too slow).
    std::string diff_key;
    std::vector<std::pair<int, std::string>> ptx_diff, sass_diff;  // (-1 removed / 0 same / +1 added, text)
    int ptx_added = 0, ptx_removed = 0, sass_added = 0, sass_removed = 0;
    bool diff_truncated = false;
    // Made once per inspection and text, not per frame: the source's lines, each one's instruction count.
    std::string lines_key;
    std::vector<std::string> source_lines;
    std::map<int, int> counts;
    int heaviest = 1;
    std::array<std::array<float, 4>, 3> pane_rects{};  // source, PTX, SASS
    std::array<int, 3> highlighted{};                  // rows linked to the highlighted line in each pane
};

// The Sweep tab's UI state: which parameters the plot spreads the points over, what it drew and what is
// hovered (for the tests and the state dump), and the file-write preview.
struct SweepUiState {
    int x_param = 0;        // the plot's x axis: a parameter index
    int y_param = -1;       // -1: a scatter of time over x; else a heatmap over x and y
    bool at_current_sizes = false;
    // The table's row order, sorted again only when the sweep has moved on (not once per frame).
    std::vector<size_t> row_order;
    std::tuple<const void*, size_t, int> row_order_key{nullptr, 0, -1};  // (sweep, points, runs done) it was sorted for
    std::array<float, 4> plot_rect{};
    int plotted = 0;        // points (scatter) or cells (heatmap) drawn
    std::string hovered;    // the label under the mouse
    std::string plot_kind;  // "scatter" or "heatmap"
    std::filesystem::path suggested_for;  // the file the editor text was suggested for
};

// The Debug tab: the thread and line chosen, the gdb session (its commands run off the UI thread, one
// at a time) and the last stop it reported.
struct DebugUiState {
    std::array<int, 3> block{0, 0, 0}, thread{0, 0, 0};
    int line = 0;                            // 0: none chosen yet (a click on a source line chooses one)
    std::shared_ptr<DebugSession> session;   // shared with the command in flight
    Background<DebugStop> work;
    std::string working_on;                  // "run to line", "step", "continue" while one is in flight
    std::optional<DebugStop> stop;           // the last answer
    std::string last_action;
    std::string gpu_note;                    // why a GPU run is not debugged here (read once)
    int steps_requested = 0;                 // --test-debug: steps to take after the first stop
    int scrolled_to = 0;                     // the stop line the source view last scrolled to
};

// One entry of the kernel picker: a file under kernels_src and the first line of its header comment.
struct KernelEntry {
    std::string task;  // folder
    std::filesystem::path path;
    std::string summary;
};

struct AppState {
    KernelSession& session;
    ImageViews& views;
    SweepSession& sweeps;
    PoolSession& pool;  // Device > Pool: several workers; a sweep runs on its chosen group
    CompareSession& compare;  // the Compare tab: the file benched on every group of the pool
    SweepUiState sweep_ui;
    ViewTransform view;
    SeriesViewState series_view;  // the 1D output view's visible range
    WritersUiState writers;       // "Who wrote each pixel": the overlay and the hover line
    float left_width = 560;
    std::string path_box;
    std::string image_box;
    std::string status_message;
    std::string output_dir;  // where Ctrl+S saves the output PNG: shown and changeable in the File menu
    bool save_when_whole = false;  // Ctrl+S on a downsampled view: saved once its full resolution comes
    std::string font;        // the font file drawn with (empty: ImGui's bitmap font), as the log names it
    ImFont* code_font = nullptr;  // monospace, for listings (null: the text font)
    int right_tab = 0;  // 0: the output views, 1: Inside (source | PTX | SASS), 2: Sweep, 3: Debug, 4: Compare
    int requested_tab = -1;       // a tab to switch to on the next frame (Find the line, the --tab option)
    InsideState inside;
    DebugUiState debug;
    double status_until = 0;  // ImGui time
    bool show_shortcuts = false;
    bool focus_path_box = false;
    bool quit_requested = false;
    std::string inspector;  // the pixel under the cursor, in words
    std::string printf_filter;  // substring the printf panel's lines must contain
    FrameStats frames;
    FrameStats update_frames;  // of those, the frames that took in a save or an answer (uploads, a new layout)
    // An update frame's parts: taking the answer in (reading, decoding, the session's bookkeeping), building
    // and drawing the UI (texture uploads, the views' shader passes), and the buffer swap (a software GL
    // rasterises there).
    struct FrameParts {
        FrameStats take_in, draw, swap;
    } update_parts;
    // From a worker's socket turning readable to the end of the frame's taking it in: how long an answer
    // (or a progress message) waited for the loop.
    FrameStats answer_waits;
    LoopTrace loop_trace;  // the loop's recent events, for the dump
    std::optional<double> launch_to_result_ms;  // from the process's start to the first result on screen (cold start)
    int frames_while_busy = 0;  // drawn while a run was in flight: the UI thread never waits on the worker
    std::vector<KernelEntry> kernels;
    int compare_a = -1, compare_b = -1;
    int uploaded_version = -1;
    std::array<std::array<float, 4>, 4> view_rects{};  // x, y, w, h of each drawn view (for tests and the dump)
    std::array<float, 4> series_rect{};                // and of the 1D output view
    std::array<float, 4> scalar_rect{};                // and of the scalar output view
    std::array<float, 4> bars_rect{};                  // and of the bars view
    int bars_hovered = -1;                             // the bar under the mouse, -1: none
    float text_overflow_px = 0;                        // how far a wrapped message reached past its panel (0: none)
    std::array<float, 4> history_plot_rect{};          // the history plot (x, y, w, h), its points, the run hovered
    int history_plot_points = 0, history_hovered_run = -1;
    int history_metric = 0;                            // the plot's: 0 time, 1 registers, 2 spill bytes
    float content_scale = 1;

    void say(const std::string& message, double seconds = 6);
};

// Files under `kernels_dir` grouped by task folder, sorted.
std::vector<KernelEntry> list_kernels(const std::filesystem::path& kernels_dir);

// Writes the shown output as PNG (an image output as it is; a matrix: its |C-R| map). Returns a message.
// The shown output as PNG in `dir`, named after the kernel and the run (01_seed_1d.run7.png), never over
// an existing file (01_seed_1d.run7-2.png). Returns the message for the status line, with the full path.
std::string save_output_png(const KernelSession& session, const std::filesystem::path& dir);
// The name save_output_png writes: the first of stem.runN.png, stem.runN-2.png, ... not taken in `dir`.
std::filesystem::path output_png_path(const std::filesystem::path& dir, const std::filesystem::path& kernel, int run);

// Writes the run history as CSV or JSON (by extension). Returns a message.
std::string export_history(const KernelSession& session, const std::filesystem::path& path);

// Copy as PyTorch: the open kernel with the window's launch settings, as the snippet `kplay-cli export
// --torch` prints, put on the clipboard. Returns a message (what was copied, or why nothing was).
std::string copy_as_pytorch(const KernelSession& session);

}  // namespace kplay::window
