// kplay: the window. The Dear ImGui GLFW/OpenGL3 example's loop, with the layout in panels and all
// engine work behind KernelSession (which never blocks the frame).
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <poll.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "base/install_paths.hpp"
#include "base/process_clock.hpp"
#include "remote/remote_target.hpp"
#include "panels.hpp"
#include "wrapped_text.hpp"
#include "font_choice.hpp"
#include "settings_store.hpp"
#include "state_dump.hpp"

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
        const char* names[] = {"Output", "Inside", "Sweep"};
        for (int tab = 0; tab < 3; ++tab) {
            const ImGuiTabItemFlags flags = state.requested_tab == tab ? ImGuiTabItemFlags_SetSelected : 0;
            if (ImGui::BeginTabItem(names[tab], nullptr, flags)) {
                state.right_tab = tab;
                if (tab == 0) draw_images_panel(state);
                else if (tab == 1) draw_inside_panel(state);
                else draw_sweep_panel(state);
                ImGui::EndTabItem();
            }
        }
        state.requested_tab = -1;
        ImGui::EndTabBar();
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"kplay: a live-reload CUDA kernel playground. Edit the kernel file in your editor; every save runs it."};
    std::string file, image, size, screenshot, dump_state;
    int frames_after_result = 10;
    double timeout = 5;
    app.add_option("FILE", file, "Kernel file (.cu); default: the last one, or the seed grayscale kernel");
    app.add_option("--image", image, "Grayscale input image (PNG/JPEG); default: the built-in image");
    app.add_option("--size", size, "The task's sizes: one value per size name (1000x999x1001), NAME=VALUE pairs, or one value for all");
    app.add_option("--timeout", timeout, "Stop a kernel after this many seconds")->check(CLI::PositiveNumber);
    std::string remote, remote_command;
    auto* remote_option = app.add_option("--remote", remote, "Run kernels on a GPU machine over ssh: [user@]host[:port] (see README, \"A GPU elsewhere\")");
    app.add_option("--remote-command", remote_command, "Run kernels on a worker reached by this command (its stdin/stdout carry the protocol)")
        ->excludes(remote_option);
    bool emulated = false, thorough = false;
    app.add_flag("--emulated", emulated, "Run on the emulated CPU device even when there is a GPU");
    app.add_flag("--thorough", thorough, "Run on the emulated CPU device with AddressSanitizer and UBSan");
    app.add_option("--screenshot", screenshot, "Write the window as PNG after --frames frames following the first result, then exit");
    app.add_option("--frames", frames_after_result, "Frames to render after the first result before the screenshot");
    app.add_option("--dump-state", dump_state, "Keep writing what the window shows as JSON to this file (and at exit)");
    std::string tab;
    int select_line = 0;
    bool find_fault = false, profile = false;
    app.add_option("--tab", tab, "Open this tab on the right: output, inside (source | PTX | SASS) or sweep")
        ->check(CLI::IsMember({"output", "inside", "sweep"}));
    std::string sweep_items;
    app.add_option("--sweep", sweep_items,
                   "Start a sweep of the file after its first result, over these items (as a kplay-sweep line: "
                   "\"block_x=32..1024 step *2; restrict ...\"), as the Sweep tab's Start does");
    app.add_option("--select-line", select_line, "Select this source line in the Inside tab, as a click would (its PTX and SASS light up)");
    std::string diff_against;
    app.add_option("--diff-against", diff_against, "The Inside tab's listings as a diff against: previous (the text before), or a run number");
    app.add_flag("--find-fault", find_fault, "After a GPU fault, look for its line at once (as the setting does)");
    app.add_flag("--profile", profile, "Profile the first good GPU run with Nsight Compute (as the Profile button does)");
    std::vector<std::string> test_drops;
    app.add_option("--test-drop", test_drops, "For tests: after the first result, drop these paths on the window (through GLFW's drop callback)")
        ->group("");
    CLI11_PARSE(app, argc, argv);

    // The worker, its device query, the GPU's context and the first run start before the window: they
    // overlap the window's own start (GLFW, the GL context, fonts), and the first result comes sooner.
    const SavedSettings saved = load_settings();
    WorkerOptions options;
    options.run_timeout_s = timeout;
    try {
        if (!remote.empty()) options.remote = ssh_target(remote);
        else if (!remote_command.empty()) options.remote = command_target(remote_command);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "kplay: %s\n", error.what());
        return 2;
    }
    KernelSession session(options);
    session.inputs.sizes = saved.sizes;
    session.inputs.image_path = !image.empty() ? image : file.empty() ? saved.image : "";
    if (emulated || thorough) session.inputs.device = kEmulatedDevice;
    session.inputs.thorough = thorough;
    std::filesystem::path kernel = file;
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
    session.find_fault_automatically = find_fault || saved.find_fault_automatically;
    session.open(kernel, /*keep_overrides=*/true);
    if (!size.empty() && !session.set_size_text(size)) std::fprintf(stderr, "kplay: --size %s: %s\n", size.c_str(), session.notice().c_str());

    if (!glfwInit()) {
        std::fprintf(stderr, "kplay: cannot open a window (no display? set DISPLAY or use kplay-cli)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    GLFWwindow* window = glfwCreateWindow(saved.window_w, saved.window_h, "kplay", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "kplay: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    session.update();  // the device list may be in: the first run goes now
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    glfwSetDropCallback(window, on_drop);
    glfwSetKeyCallback(window, on_key);  // before ImGui's backend, which chains to it

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    static const std::string ini = (config_dir() / "imgui.ini").string();
    std::filesystem::create_directories(config_dir());
    ImGui::GetIO().IniFilename = ini.c_str();
    float scale_x = 1, scale_y = 1;
    glfwGetWindowContentScale(window, &scale_x, &scale_y);
    const float scale = std::max(1.0f, scale_x);
    ImGui::StyleColorsDark();
    ImGui::GetStyle().ScaleAllSizes(scale);
    ImGui::GetStyle().FrameRounding = 3;
    ImFont* code_font = nullptr;
    const FontChoice font = load_fonts(scale, code_font);
    std::fprintf(stderr, "kplay: font: %s%s%s\n", font.description.c_str(), font.path.empty() ? "" : ", ", font.path.c_str());
    session.update();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    ImageViews views;
    views.load_shaders();
    WorkerOptions sweep_options = options;  // the same machine, local or remote
    sweep_options.run_timeout_s = timeout;
    SweepSession sweeps(sweep_options);  // a worker of its own, so the live runs never wait behind a sweep
    AppState state{session, views, sweeps};
    state.font = font.path;
    state.code_font = code_font;
    state.content_scale = scale;
    state.left_width = saved.left_width * scale / std::max(1.0f, scale);
    state.kernels = list_kernels(kernels_dir());
    state.output_dir = saved.output_dir;
    state.image_box = session.inputs.image_path;
    state.path_box = kernel.string();
    if (tab == "inside") state.requested_tab = 1;
    if (tab == "sweep") state.requested_tab = 2;
    state.inside.selected_line = std::max(0, select_line);
    state.inside.scroll_pending = select_line > 0;
    if (diff_against == "previous") state.inside.diff_against = -1;
    else if (!diff_against.empty()) state.inside.diff_against = std::max(0, std::atoi(diff_against.c_str()));

    // Wakes the loop as soon as a save arrives (inotify) or the worker answers (its socket; a remote
    // worker's answer arrives in pieces and must be read promptly), so an idle window reacts without
    // polling. The UI thread publishes the worker's descriptor, which changes when it restarts.
    std::atomic<bool> running{true};
    std::atomic<int> worker_fd{-1};
    std::thread waker([&] {
        const int fd = session.watcher_descriptor();
        while (running) {
            pollfd watch[2] = {{fd, POLLIN, 0}, {worker_fd.load(), POLLIN, 0}};
            if (::poll(watch, 2, 100) > 0) {
                glfwPostEmptyEvent();
                std::this_thread::sleep_for(std::chrono::milliseconds(3));  // the loop drains it meanwhile
            }
        }
    });

    int frames_since_result = -1;
    double last_dump = 0;
    const auto started = std::chrono::steady_clock::now();
    while (!glfwWindowShouldClose(window) && !state.quit_requested) {
        // Busy: short waits so results show promptly; idle: sleep until input or a save.
        worker_fd = session.client().wait_fd();
        glfwWaitEventsTimeout(session.busy() || sweeps.running() ? 0.002 : 0.1);
        const auto frame_start = std::chrono::steady_clock::now();
        sweeps.update();
        if (!sweep_items.empty() && session.results_received() > 0 && session.devices_known()) {
            // The test hook: the items as the Sweep tab's box would hold them, then its Start.
            sweeps.text = sweep_items;  // one line of ';'-separated items, as a kplay-sweep line reads
            state.sweep_ui.suggested_for = session.file();
            if (sweeps.start(sweep_start_from(session, /*at_current_sizes=*/!size.empty()))) {
                state.sweep_ui.at_current_sizes = !size.empty();
                state.sweep_ui.x_param = 0;
                state.sweep_ui.y_param = sweeps.sweep()->target().space.params.size() >= 2 ? 1 : -1;
            } else {
                std::fprintf(stderr, "kplay: --sweep: %s\n", sweeps.problem().c_str());
            }
            sweep_items.clear();
        }
        if (session.update()) {
            // The title carries the file and the error count, so it shows in the taskbar too.
            std::string title = "kplay";
            if (!session.file().empty()) title += " - " + session.file().filename().string();
            if (const auto& last = session.last()) {
                const int errors = last->compile.count(Severity::error);
                if (errors) title += " - " + std::to_string(errors) + (errors == 1 ? " error" : " errors");
            }
            glfwSetWindowTitle(window, title.c_str());
        }
        if (!test_drops.empty() && session.results_received() > 0) {
            // The test hook: the paths go through the callback GLFW calls for a real drop.
            std::vector<const char*> paths;
            for (const auto& path : test_drops) paths.push_back(path.c_str());
            on_drop(window, static_cast<int>(paths.size()), paths.data());
            test_drops.clear();
        }
        for (const auto& dropped : g_dropped) {
            std::error_code error;
            if (std::filesystem::is_directory(dropped, error)) {
                state.say(dropped + " is a folder: drop a kernel file (.cu) or an image (PNG, JPEG).");
            } else if (is_image_path(dropped)) {
                state.image_box = dropped;
                session.set_image(dropped);  // a corrupt or unreadable image is the run's input error
            } else {
                state.path_box = dropped;
                session.open(dropped);  // an unreadable or non-text file is the session's file error
            }
            state.view.fit_requested = true;
        }
        g_dropped.clear();

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        int width = 0, height = 0;
        glfwGetFramebufferSize(window, &width, &height);
        reset_wrapped_overflow();
        draw_layout(state, width, height);
        state.text_overflow_px = wrapped_overflow_px();
        ImGui::Render();
        glViewport(0, 0, width, height);
        glClearColor(0.1f, 0.1f, 0.11f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

        if (profile && session.can_profile()) {
            session.profile_last_run();
            profile = false;
        }
        // A screenshot waits for what follows the result too: the inspection, a fault's line, a profile.
        const bool settled = session.results_received() > 0 && !session.inspector().busy() && !session.finding_fault_line() &&
                             !session.profiling() && !(profile && session.can_profile()) && !sweeps.running() && sweep_items.empty();
        if (frames_since_result < 0 && settled) frames_since_result = 0;
        if (frames_since_result >= 0) ++frames_since_result;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const bool screenshot_due = !screenshot.empty() && (frames_since_result >= frames_after_result || elapsed > 120);
        if (screenshot_due) write_screenshot(screenshot, width, height);
        glfwSwapBuffers(window);
        session.frame_presented();
        if (!state.launch_to_result_ms && session.opened_to_result_ms()) state.launch_to_result_ms = ms_since_process_start();
        if (session.busy()) ++state.frames_while_busy;
        state.frames.add(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
        if (!dump_state.empty() && (ImGui::GetTime() - last_dump > 0.2 || screenshot_due)) {
            write_state_dump(state, dump_state);
            last_dump = ImGui::GetTime();
        }
        if (screenshot_due) break;
    }
    running = false;
    waker.join();
    if (!dump_state.empty()) write_state_dump(state, dump_state);
    int width = 0, height = 0;
    glfwGetWindowSize(window, &width, &height);
    save_settings(state, width, height);

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return 0;
}
