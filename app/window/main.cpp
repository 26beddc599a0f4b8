// kplay: the window. The Dear ImGui GLFW/OpenGL3 example's loop, with the layout in panels, all engine
// work behind KernelSession (which never blocks the frame), the command line in window_options and the
// scripted actions it asks for in test_hooks.
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <poll.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>

#include "base/install_paths.hpp"
#include "base/process_clock.hpp"
#include "base/process_memory.hpp"
#include "client/remote_target.hpp"
#include "kernel_file/include_dirs.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"
#include "font_choice.hpp"
#include "frame_pacing.hpp"
#include "settings_store.hpp"
#include "test_hooks.hpp"
#include "window_options.hpp"

using namespace kplay;
using namespace kplay::window;

namespace {

std::vector<KeyPress> g_shortcuts;  // filled by the key callback, read by draw_menu_bar
std::vector<std::string> g_dropped;  // filled by GLFW's drop callback, read by the loop

void on_drop(GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i) g_dropped.emplace_back(paths[i]);
}

// Shortcuts are taken from key events, not from per-frame key state: a press and release that both
// happen between two frames (a quick tap, or a scripted one) must still count. ImGui's backend
// chains to this callback.
void on_key(GLFWwindow*, int key, int, int action, int mods) {
    if (action == GLFW_PRESS) g_shortcuts.push_back({key, mods});
}

bool is_image_path(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

// Returns the font used, for the log and the state dump.
// The code font (monospace, for the Inside panel's listings) goes into `code_font`; the text font is
// the default one.
FontChoice load_fonts(float scale, ImFont*& code_font) {
    ImGuiIO& io = ImGui::GetIO();
    const FontChoice choice = choose_font();
    const bool text_loaded = !choice.path.empty() && io.Fonts->AddFontFromFileTTF(choice.path.c_str(), 16.0f * scale);
    if (!text_loaded) {
        ImFontConfig config;
        config.SizePixels = 13.0f * scale;
        io.Fonts->AddFontDefault(&config);
    }
    const FontChoice code = choose_font(FontRole::code);
    code_font = code.path.empty() ? nullptr : io.Fonts->AddFontFromFileTTF(code.path.c_str(), 14.0f * scale);
    if (text_loaded) return choice;
    return choice.path.empty() ? choice : FontChoice{"", "ImGui's built-in bitmap font (" + choice.path + " did not load)"};
}

void draw_layout(AppState& state, int width, int height) {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(static_cast<float>(width), static_cast<float>(height)));
    ImGui::Begin("kplay", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus |
                     ImGuiWindowFlags_NoSavedSettings);
    draw_menu_bar(state, g_shortcuts);
    g_shortcuts.clear();
    draw_status_bar(state);
    ImGui::Separator();

    const float full_height = ImGui::GetContentRegionAvail().y;
    state.left_width = std::clamp(state.left_width, 300.0f * state.content_scale, static_cast<float>(width) * 0.6f);
    ImGui::BeginChild("left", ImVec2(state.left_width, full_height), false);
    if (ImGui::CollapsingHeader("Kernel", ImGuiTreeNodeFlags_DefaultOpen)) draw_kernel_panel(state);
    if (ImGui::CollapsingHeader("Launch", ImGuiTreeNodeFlags_DefaultOpen)) draw_launch_panel(state);
    if (ImGui::CollapsingHeader("Inputs", ImGuiTreeNodeFlags_DefaultOpen)) draw_inputs_panel(state);
    if (ImGui::CollapsingHeader("Results", ImGuiTreeNodeFlags_DefaultOpen)) draw_results_panel(state);
    if (ImGui::CollapsingHeader("Diagnostics", ImGuiTreeNodeFlags_DefaultOpen)) draw_diagnostics_panel(state);
    if (state.session.last() && state.session.last()->emulated && ImGui::CollapsingHeader("Kernel output (printf)", ImGuiTreeNodeFlags_DefaultOpen))
        draw_printf_panel(state);
    if (ImGui::CollapsingHeader("History", ImGuiTreeNodeFlags_DefaultOpen)) draw_history_panel(state);
    ImGui::EndChild();

    // A draggable splitter between the columns.
    ImGui::SameLine(0, 0);
    ImGui::InvisibleButton("splitter", ImVec2(6 * state.content_scale, full_height));
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive()) {
        state.left_width += ImGui::GetIO().MouseDelta.x;
        state.view.fit_requested = true;
    }
    ImGui::GetWindowDrawList()->AddLine(ImVec2(ImGui::GetItemRectMin().x + 3 * state.content_scale, ImGui::GetItemRectMin().y),
                                        ImVec2(ImGui::GetItemRectMin().x + 3 * state.content_scale, ImGui::GetItemRectMax().y),
                                        IM_COL32(70, 70, 70, 255));
    ImGui::SameLine(0, 0);
    ImGui::BeginChild("right", ImVec2(0, full_height), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    // The output views, or inside the kernel (source | PTX | SASS).
    if (ImGui::BeginTabBar("right_tabs")) {
        const char* names[] = {"Output", "Inside", "Sweep", "Debug", "Compare"};
        for (int tab = 0; tab < 5; ++tab) {
            const ImGuiTabItemFlags flags = state.requested_tab == tab ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(names[tab], nullptr, flags)) {
                state.right_tab = tab;
                if (tab == 0) draw_images_panel(state);
                else if (tab == 1) draw_inside_panel(state);
                else if (tab == 2) draw_sweep_panel(state);
                else if (tab == 3) draw_debug_panel(state);
                else draw_compare_panel(state);
                ImGui::EndTabItem();
            }
        }
        state.requested_tab = -1;
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
    ImGui::End();
}

// Where kernels run: this machine, or a worker over ssh or a command. Prints why not and returns false
// when the target cannot be read.
bool worker_options_of(const WindowOptions& options, WorkerOptions& worker) {
    worker.run_timeout_s = options.timeout;
    try {
        if (!options.remote.empty()) worker.remote = ssh_target(options.remote);
        else if (!options.remote_command.empty()) worker.remote = command_target(options.remote_command);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "kplay: %s\n", error.what());
        return false;
    }
    return true;
}

// Opens the kernel of the command line, else the last one, else the seed kernel, with the inputs asked
// for. Returns its path.
std::filesystem::path open_first_kernel(KernelSession& session, const WindowOptions& options,
                                        const SavedSettings& saved) {
    session.inputs.sizes = saved.sizes;
    session.inputs.image_path = !options.image.empty() ? options.image : options.file.empty() ? saved.image : "";
    if (options.emulated || options.thorough) session.inputs.device = kEmulatedDevice;
    session.inputs.thorough = options.thorough;
    std::filesystem::path kernel = options.file;
    if (kernel.empty()) kernel = !saved.kernel.empty() && std::filesystem::exists(saved.kernel)
                                     ? std::filesystem::path(saved.kernel)
                                     : seed_kernel_path();
    if (!saved.kernel.empty() && std::filesystem::path(saved.kernel) == kernel) {
        // The same kernel as last time: its launch settings come back too (before the first run).
        session.overrides.block = saved.block;
        session.overrides.grid = saved.grid;
        session.overrides.smem = saved.smem;
        session.overrides.args = saved.args;
    }
    session.find_fault_automatically = options.hooks.find_fault || saved.find_fault_automatically;
    session.open(kernel, /*keep_overrides=*/true);
    if (!options.size.empty() && !session.set_size_text(options.size))
        std::fprintf(stderr, "kplay: --size %s: %s\n", options.size.c_str(), session.notice().c_str());
    return kernel;
}

// An OpenGL 3.3 core window of the saved size; null (and the reason on stderr) when there is none.
GLFWwindow* open_window(const SavedSettings& saved) {
    if (!glfwInit()) {
        std::fprintf(stderr, "kplay: cannot open a window (no display? set DISPLAY or use kplay-cli)\n");
        return nullptr;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    GLFWwindow* window = glfwCreateWindow(saved.window_w, saved.window_h, "kplay", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "kplay: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
    }
    return window;
}

// What ImGui's start chose: the scale of the screen, and the fonts.
struct Look {
    float scale = 1;
    FontChoice font;
    ImFont* code_font = nullptr;
};

// ImGui's context, its settings file, the style at the window's content scale, and the fonts.
Look start_imgui(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    static const std::string ini = (config_dir() / "imgui.ini").string();
    std::filesystem::create_directories(config_dir());
    ImGui::GetIO().IniFilename = ini.c_str();
    float scale_x = 1, scale_y = 1;
    glfwGetWindowContentScale(window, &scale_x, &scale_y);
    Look look;
    look.scale = std::max(1.0f, scale_x);
    ImGui::StyleColorsDark();
    ImGui::GetStyle().ScaleAllSizes(look.scale);
    ImGui::GetStyle().FrameRounding = 3;
    look.font = load_fonts(look.scale, look.code_font);
    std::fprintf(stderr, "kplay: font: %s%s%s\n", look.font.description.c_str(), look.font.path.empty() ? "" : ", ",
                 look.font.path.c_str());
    return look;
}

// The window's own state at the start: what ImGui's start chose and what was saved last time.
void set_up_state(AppState& state, const Look& look, const SavedSettings& saved, const std::filesystem::path& kernel) {
    state.font = look.font.path;
    state.code_font = look.code_font;
    state.content_scale = look.scale;
    state.left_width = saved.left_width * look.scale / std::max(1.0f, look.scale);
    state.kernels = list_kernels(kernels_dir());
    state.output_dir = saved.output_dir;
    state.image_box = state.session.inputs.image_path;
    state.path_box = kernel.string();
}

// Device > Pool's spec as it was saved, or --pool's, which starts at once: a saved pool waits for Start
// (it may log in over ssh or queue Slurm jobs).
void start_pool(AppState& state, const WindowOptions& options, const SavedSettings& saved) {
    state.pool.spec = saved.pool_spec;
    state.pool.chosen_group = saved.pool_group;
    if (options.pool.empty()) return;
    state.pool.spec.clear();
    for (const std::string& member : options.pool) state.pool.spec += (state.pool.spec.empty() ? "" : ",") + member;
    if (!state.pool.start()) std::fprintf(stderr, "kplay: --pool: %s\n", state.pool.problem().c_str());
}

// Wakes the loop as soon as a save arrives (inotify) or a worker answers (its socket; a remote worker's
// answer arrives in pieces and must be read promptly), so the window reacts without polling: idle, and
// while a run is in flight, when it draws only a few frames a second (see the loop). The UI thread tells
// it the workers' descriptors, which change when a worker restarts.
class Waker {
public:
    explicit Waker(const KernelSession& session)
        : thread_([this, &session] {
              const int fd = session.watcher_descriptor();
              while (running_) {
                  pollfd watch[3] = {{fd, POLLIN, 0}, {worker_fd_.load(), POLLIN, 0}, {answer_fd_.load(), POLLIN, 0}};
                  if (::poll(watch, 3, 100) > 0) {
                      int64_t none = 0;
                      if ((watch[1].revents | watch[2].revents) & POLLIN)
                          worker_ready_ns_.compare_exchange_strong(none, std::chrono::steady_clock::now().time_since_epoch().count());
                      glfwPostEmptyEvent();
                      std::this_thread::sleep_for(std::chrono::milliseconds(3));  // the loop drains it meanwhile
                  }
              }
          }) {}
    Waker(const Waker&) = delete;
    Waker& operator=(const Waker&) = delete;
    ~Waker() { stop(); }
    // The main worker's descriptor, and the one the run in flight answers on (the same or the thorough one's).
    void watch_workers(int main_fd, int answer_fd) {
        worker_fd_ = main_fd;
        answer_fd_ = answer_fd == main_fd ? -1 : answer_fd;
    }
    // When a worker's socket was first seen readable since the last call (nothing when it was not): how
    // long an answer waited for the loop is measured from there.
    std::optional<std::chrono::steady_clock::time_point> take_worker_ready() {
        const int64_t ns = worker_ready_ns_.exchange(0);
        if (ns == 0) return std::nullopt;
        return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(ns));
    }
    void stop() noexcept {
        running_ = false;
        if (thread_.joinable()) thread_.join();
    }

private:
    std::atomic<bool> running_{true};
    std::atomic<int> worker_fd_{-1}, answer_fd_{-1};
    std::atomic<int64_t> worker_ready_ns_{0};
    std::thread thread_;  // last: it starts once the flags above exist
};

// What the loop trace compares frame to frame.
LoopCounts loop_counts(const KernelSession& session) {
    LoopCounts counts{session.reloads(), session.runs_submitted(), session.results_received()};
    if (const auto& last = session.last()) {
        counts.showing_partial = last->partial;
        counts.checked_at_ms = last->times.checked_at_ms;
        counts.partial_at_ms = last->times.partial_at_ms;
        counts.run_ms = last->times.run_ms;
    }
    return counts;
}

// The title carries the file and the error count, so it shows in the taskbar too.
void update_title(GLFWwindow* window, const KernelSession& session) {
    std::string title = "kplay";
    if (!session.file().empty()) title += " - " + session.file().filename().string();
    if (const auto& last = session.last()) {
        const int errors = last->compile.count(Severity::error);
        if (errors) title += " - " + std::to_string(errors) + (errors == 1 ? " error" : " errors");
    }
    glfwSetWindowTitle(window, title.c_str());
}

// What was dropped on the window since the last frame: a kernel file opens, an image becomes the input.
void open_dropped(AppState& state) {
    for (const auto& dropped : g_dropped) {
        std::error_code error;
        if (std::filesystem::is_directory(dropped, error)) {
            state.say(dropped + " is a folder: drop a kernel file (.cu) or an image (PNG, JPEG).");
        } else if (is_image_path(dropped)) {
            state.image_box = dropped;
            state.session.set_image(dropped);  // a corrupt or unreadable image is the run's input error
        } else {
            state.path_box = dropped;
            state.session.open(dropped);  // an unreadable or non-text file is the session's file error
        }
        state.view.fit_requested = true;
    }
    g_dropped.clear();
}

// One frame of ImGui, rendered into the framebuffer (not yet shown); its size goes to width and height.
void render_frame(GLFWwindow* window, AppState& state, int& width, int& height) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    glfwGetFramebufferSize(window, &width, &height);
    reset_wrapped_overflow();
    draw_layout(state, width, height);
    state.text_overflow_px = wrapped_overflow_px();
    ImGui::Render();
    glViewport(0, 0, width, height);
    glClearColor(0.1f, 0.1f, 0.11f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// When a frame's parts began and ended: its start, the answer taken in, the UI drawn, the buffers swapped.
struct FrameMarks {
    using Point = std::chrono::steady_clock::time_point;
    Point start, taken_in, drawn, swapped;
};

// The frame's place in the window's own measures: the cold start, frames drawn while busy, frame times.
void count_frame(AppState& state, const FrameMarks& marks, bool updated) {
    // The frames up to the first result on screen (the fonts, the shaders' first use, the first
    // textures) are the cold start's, which is measured on its own: the frame times are the later ones.
    const bool starting = !state.launch_to_result_ms;
    if (!state.launch_to_result_ms && state.session.opened_to_result_ms())
        state.launch_to_result_ms = ms_since_process_start();
    if (state.session.busy()) ++state.frames_while_busy;
    const auto ms = [](FrameMarks::Point from, FrameMarks::Point to) { return std::chrono::duration<double, std::milli>(to - from).count(); };
    state.loop_trace.slow_frame(marks.start, updated, ms(marks.start, marks.taken_in), ms(marks.taken_in, marks.drawn), ms(marks.drawn, marks.swapped));
    if (starting) return state.frames.count_only();
    state.frames.add(ms(marks.start, marks.swapped));
    if (!updated) return;
    state.update_frames.add(ms(marks.start, marks.swapped));
    state.update_parts.take_in.add(ms(marks.start, marks.taken_in));
    state.update_parts.draw.add(ms(marks.taken_in, marks.drawn));
    state.update_parts.swap.add(ms(marks.drawn, marks.swapped));
}

void close_window(GLFWwindow* window) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
}

}  // namespace

int main(int argc, char** argv) {
    keep_freed_arrays_in_heap();  // each save's arrays reuse the last ones' pages
    WindowOptions options;
    if (const std::optional<int> status = parse_window_options(argc, argv, options)) return *status;

    // The worker, its device query, the GPU's context and the first run start before the window: they
    // overlap the window's own start (GLFW, the GL context, fonts), and the first result comes sooner.
    const SavedSettings saved = load_settings();
    WorkerOptions worker;
    if (!worker_options_of(options, worker)) return 2;
    KernelSession session(worker);
    if (const char* folders = std::getenv("KPLAY_INCLUDE_PATH")) {
        std::vector<std::string> dirs;
        for (const std::filesystem::path& dir : split_include_path(folders)) dirs.push_back(dir.string());
        session.set_include_dirs(std::move(dirs));
    }
    const std::filesystem::path kernel = open_first_kernel(session, options, saved);

    GLFWwindow* window = open_window(saved);
    if (!window) return 1;
    session.update();  // the device list may be in: the first run goes now
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    glfwSetDropCallback(window, on_drop);
    glfwSetKeyCallback(window, on_key);  // before ImGui's backend, which chains to it
    const Look look = start_imgui(window);
    session.update();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    ImageViews views;
    views.load_shaders();
    WorkerOptions sweep_options = worker;  // the same machine, local or remote
    sweep_options.run_timeout_s = options.timeout;
    SweepSession sweeps(sweep_options);  // a worker of its own, so the live runs never wait behind a sweep
    PoolOptions pool_options;
    pool_options.base = sweep_options;
    pool_options.base.remote.reset();  // each member says where its worker runs
    PoolSession pool(pool_options);    // ends before the sweep session: lent workers end with the pool's thread
    CompareSession compare;  // ends before the pool, whose workers it may still hold
    AppState state{session, views, sweeps, pool, compare};
    set_up_state(state, look, saved, kernel);
    start_pool(state, options, saved);
    TestHooks hooks(options.hooks, /*at_current_sizes=*/!options.size.empty());
    hooks.set_up(state);

    Waker waker(session);
    auto last_drawn = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    while (!glfwWindowShouldClose(window) && !state.quit_requested) {
        // The Waker ends the wait the moment a save or an answer arrives, so the loop needs to wake by
        // itself only to move what changes with time: a run's progress (30 frames a second), or the sweep
        // (its worker is not watched: short waits). Drawing frames back to back while a run is in flight
        // would leave its answer waiting for the frame being drawn, and takes cores from the worker.
        waker.watch_workers(session.client().wait_fd(), session.answer_fd());
        glfwWaitEventsTimeout(FramePacing::wait_s(sweeps.running(), session.busy(), last_drawn, std::chrono::steady_clock::now()));
        FrameMarks marks;
        marks.start = std::chrono::steady_clock::now();
        sweeps.update();
        update_pool(state);
        update_compare(state);
        hooks.before_update(state);
        hooks.debug_after_result(state);
        hooks.compare_after_result(state);
        const bool updated = session.update();
        if (updated) update_title(window, session);
        hooks.drop_files(window, session, on_drop);
        open_dropped(state);
        marks.taken_in = std::chrono::steady_clock::now();
        if (const auto ready = waker.take_worker_ready()) {
            state.loop_trace.worker_ready(*ready);
            if (updated) state.answer_waits.add(std::chrono::duration<double, std::milli>(marks.taken_in - *ready).count());
        }
        state.loop_trace.frame(marks.start, marks.taken_in, loop_counts(session));
        // While a run is in flight, a wake that took nothing in (the worker's progress, the mouse) waits
        // for the next due frame: a frame drawn for it would hold the UI thread while the answer arrives.
        // Input is not lost: ImGui takes it at the next frame, at most a thirtieth of a second later.
        if (!updated && session.busy() && !sweeps.running() && !FramePacing::frame_due(last_drawn, marks.taken_in)) continue;
        last_drawn = marks.start;
        int width = 0, height = 0;
        render_frame(window, state, width, height);
        hooks.after_render(state, width, height);
        marks.drawn = std::chrono::steady_clock::now();
        glfwSwapBuffers(window);
        marks.swapped = std::chrono::steady_clock::now();
        session.frame_presented();
        count_frame(state, marks, updated);
        if (hooks.after_frame(state)) break;
    }
    waker.stop();
    hooks.at_exit(state);
    int width = 0, height = 0;
    glfwGetWindowSize(window, &width, &height);
    save_settings(state, width, height);
    close_window(window);
    return 0;
}
