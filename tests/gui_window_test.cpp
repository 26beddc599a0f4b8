// The real window under a display (CI starts Xvfb): it starts on the seed kernel and the built-in
// image, its screenshot shows the input image, editor-style saves reload exactly once, a broken kernel
// shows diagnostics while the last output stays, the no-GPU banner shows, and keys pressed through
// xdotool reach it. The state is read from --dump-state.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include <stb_image.h>
#include <stb_image_write.h>

#include "base/default_image.hpp"
#include "base/image_io.hpp"
#include "test_support.hpp"

extern char** environ;

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string why_no_display() {
    const char* display = std::getenv("DISPLAY");
    return display && *display ? "" : "no DISPLAY: the gui tests need an X server (.ci/run starts Xvfb)";
}

// One kplay window with its own config folder, driven from the test.
class Window {
public:
    // `environment`: more NAME=VALUE entries (KPLAY_WORKER: another worker for the window and its pool's local members).
    Window(const kplay::test::TempDir& dir, std::vector<std::string> args, const std::vector<std::string>& environment = {})
        : state_(dir.path() / "state.json") {
        std::vector<std::string> env_strings;
        for (char** e = environ; *e; ++e) {
            const std::string entry = *e;
            if (entry.rfind("XDG_CONFIG_HOME=", 0) == 0 || entry.rfind("XDG_CACHE_HOME=", 0) == 0 || entry.rfind("KPLAY_CUDA_DRIVER=", 0) == 0)
                continue;
            env_strings.push_back(entry);
        }
        env_strings.push_back("XDG_CONFIG_HOME=" + (dir.path() / "config").string());
        env_strings.push_back("XDG_CACHE_HOME=" + (dir.path() / "cache").string());
        // The same on every machine: the no-driver path (a GPU machine runs the engine in gpu tests).
        env_strings.push_back("KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1");
        env_strings.insert(env_strings.end(), environment.begin(), environment.end());
        std::vector<char*> envp;
        for (auto& e : env_strings) envp.push_back(e.data());
        envp.push_back(nullptr);
        args.insert(args.begin(), {KPLAY_TEST_WINDOW, "--dump-state", state_.string()});
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        EXPECT_EQ(posix_spawn(&pid_, argv[0], nullptr, nullptr, argv.data(), envp.data()), 0);
    }
    ~Window() {
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    json state() const {
        std::ifstream in(state_);
        try {
            return json::parse(in);
        } catch (...) {
            return json::object();
        }
    }
    // Waits (up to 30 s) until `ready` holds for the dumped state.
    json wait_for(const std::function<bool(const json&)>& ready) const {
        for (int i = 0; i < 300; ++i) {
            json s = state();
            if (!s.empty() && ready(s)) return s;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        ADD_FAILURE() << "timed out; last state: " << state().dump().substr(0, 2000);
        return state();
    }
    int wait_exit() {
        int status = 0;
        for (int i = 0; i < 600; ++i) {
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = 0;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return -2;
    }

private:
    fs::path state_;
    pid_t pid_ = 0;
};

int run(const std::string& command) { return std::system(command.c_str()); }

}  // namespace

TEST(GuiWindow, StartsOnTheSeedKernelAndBuiltInImageAndShowsIt) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {"--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    EXPECT_NE(state.value("file", "").find("grayscale/01_seed_1d.cu"), std::string::npos);
    EXPECT_GE(state.value("results_received", 0), 1);
    EXPECT_TRUE(state.value("has_output", false));
    EXPECT_EQ(state.value("shader_error", "x"), "");
    EXPECT_NE(state.value("device_banner", "").find("No CUDA device"), std::string::npos);
    // The window kept drawing while the first run was in flight (a UI thread that waited on the worker would
    // draw one frame then). Counted, not timed: under load every frame is slow, but frames still come.
    EXPECT_GE(state.value("frames_while_busy", 0), 3);

    // The input view shows the built-in image: compare screen pixels with the image at several points.
    int w = 0, h = 0, channels = 0;
    const std::string png = kplay::test::read_file(shot);
    unsigned char* pixels = stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()), static_cast<int>(png.size()),
                                                  &w, &h, &channels, 3);
    ASSERT_NE(pixels, nullptr);
    const kplay::PlanarImage image = kplay::make_default_image();
    const float scale = state["view"]["scale"], ox = state["view"]["offset"][0], oy = state["view"]["offset"][1];
    // Sample screen pixels across the view; each must show what the shader samples there: the image,
    // bilinearly filtered when shrunk (texture() with GL_LINEAR at the pixel's centre).
    auto texel = [&](int c, int x, int y) {
        x = std::clamp(x, 0, image.width - 1);
        y = std::clamp(y, 0, image.height - 1);
        return static_cast<float>(image.planes[c * image.pixels() + static_cast<size_t>(y) * image.width + x]);
    };
    // The seed kernel's gray value of an input pixel (its own weights), for the output view.
    auto gray = [&](int x, int y) { return 0.2989f * texel(0, x, y) + 0.5870f * texel(1, x, y) + 0.1140f * texel(2, x, y); };
    int matched = 0, checked = 0, output_matched = 0, output_checked = 0;
    for (const char* view : {"input", "output"}) {
        if (!state["view"].contains(view)) continue;
        const auto rect = state["view"][view];
        const bool output = std::string(view) == "output";
        for (int iy = 1; iy < 12; ++iy)
            for (int ix = 1; ix < 12; ++ix) {
                const int sx = static_cast<int>(rect[0].get<float>() + ox + scale * image.width * ix / 12.0f);
                const int sy = static_cast<int>(rect[1].get<float>() + oy + scale * image.height * iy / 12.0f);
                if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
                const float u = (sx + 0.5f - rect[0].get<float>() - ox) / scale - 0.5f;
                const float v = (sy + 0.5f - rect[1].get<float>() - oy) / scale - 0.5f;
                const int x0 = static_cast<int>(std::floor(u)), y0 = static_cast<int>(std::floor(v));
                const float fx = u - x0, fy = v - y0;
                int diff = 0;
                for (int c = 0; c < 3; ++c) {
                    auto at = [&](int x, int y) { return output ? gray(x, y) : texel(c, x, y); };
                    const float expected = (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
                                           fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
                    diff = std::max(diff, static_cast<int>(std::abs(pixels[3 * (sy * w + sx) + c] - expected)));
                }
                ++(output ? output_checked : checked);
                if (diff <= 24) ++(output ? output_matched : matched);
            }
    }
    stbi_image_free(pixels);
    EXPECT_GE(checked, 100);
    EXPECT_GE(matched, checked * 9 / 10) << matched << " of " << checked << " sample points match the image";
    // Without a GPU the kernel ran on the emulated CPU device: the output view shows its real result.
    if (state.value("emulating", false)) {
        EXPECT_TRUE(state["last"].value("emulated", false));
        EXPECT_TRUE(state["shown"].value("passed", false));
        EXPECT_GE(output_checked, 100);
        EXPECT_NE(state.value("device_banner", "").find("run on the emulated CPU device"), std::string::npos);
        EXPECT_GE(output_matched, output_checked * 9 / 10) << output_matched << " of " << output_checked << " output points are the gray image";
    }
}

TEST(GuiWindow, EditorSavesReloadExactlyOnceAndBrokenKernelsKeepTheLastOutput) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const std::string seed = kplay::test::read_file(kplay::test::kernels_dir() / "grayscale/01_seed_1d.cu");
    const fs::path kernel = dir.write("grayscale/mine.cu", seed);
    Window window(dir, {kernel.string()});
    window.wait_for([](const json& s) { return s.value("results_received", 0) >= 1; });

    // vim: move the original away, write a new file.
    fs::rename(kernel, dir.path() / "grayscale/mine.cu~");
    std::ofstream(kernel) << seed << "\n// edited in vim\n";
    json state = window.wait_for([](const json& s) { return s.value("reloads", 0) >= 2 && s.value("results_received", 0) >= 2; });
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    EXPECT_EQ(window.state().value("reloads", 0), 2) << "one save, one reload";

    // VS Code: truncate and write in place.
    { std::ofstream(kernel, std::ios::trunc) << seed << "\n// edited in VS Code\n"; }
    window.wait_for([](const json& s) { return s.value("reloads", 0) >= 3 && s.value("results_received", 0) >= 3; });
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    EXPECT_EQ(window.state().value("reloads", 0), 3);
    EXPECT_FALSE(window.state()["edit_to_result_ms"].empty());

    // Undo back to the vim version: the same source and settings had a result, which shows at once.
    { std::ofstream(kernel, std::ios::trunc) << seed << "\n// edited in vim\n"; }
    state = window.wait_for([](const json& s) { return s.value("reloads", 0) >= 4 && s.value("results_received", 0) >= 4; });
    EXPECT_EQ(state.value("reloads", 0), 4);
    if (state["last"].value("stage", "") == "done") {  // with a GPU: a real result is reused
        ASSERT_FALSE(state["history"].empty());
        EXPECT_TRUE(state["history"].back().value("reused", false)) << "no run needed for content already run";
    }

    // A broken save: diagnostics show, the last output stays and is marked stale.
    { std::ofstream(kernel, std::ios::trunc) << "__global__ void k(unsigned char* x, unsigned char* o, int n) { o[0] = ; }\n"; }
    state = window.wait_for([](const json& s) { return s.value("results_received", 0) >= 5; });
    EXPECT_EQ(state["last"]["stage"], "compile");
    EXPECT_GE(state["last"]["compile"]["errors"].get<int>(), 1);
    EXPECT_EQ(state["last"]["compile"]["diagnostics"][0]["line"], 1);
    EXPECT_TRUE(state.value("has_output", false));
    EXPECT_TRUE(state.value("output_stale", false));

    // An empty save is retried, never compiled.
    { std::ofstream(kernel, std::ios::trunc); }
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    EXPECT_EQ(window.state().value("runs_submitted", 0), state.value("runs_submitted", 0));
}

TEST(GuiWindow, KeysPressedThroughXdotoolReachTheWindow) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    if (run("command -v xdotool >/dev/null") != 0) GTEST_SKIP() << "xdotool is not installed (scripts/install-deps installs it)";
    kplay::test::TempDir dir;
    Window window(dir, {});
    json state = window.wait_for([](const json& s) { return s.value("results_received", 0) >= 1; });
    ASSERT_EQ(run("timeout 20 xdotool search --sync --name '^kplay' windowfocus --sync >/dev/null 2>&1"), 0);
    ASSERT_EQ(run("xdotool key F5"), 0);
    state = window.wait_for([](const json& s) { return s.value("results_received", 0) >= 2; });
    EXPECT_EQ(state.value("runs_submitted", 0), 2);
    ASSERT_EQ(run("xdotool key ctrl+r"), 0);
    state = window.wait_for([](const json& s) { return s.value("results_received", 0) >= 3; });
    EXPECT_EQ(state.value("reloads", 0), 2) << "Ctrl+R recompiles from disk";
    ASSERT_EQ(run("xdotool key ctrl+q"), 0);
    EXPECT_EQ(window.wait_exit(), 0);
}

TEST(GuiWindow, EmulatedDeviceShowsPrintfAndBoundsFaultsWithTheirLine) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = dir.write("grayscale/noisy.cu",
                                      "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=256\n"
                                      "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
                                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "    if (threadIdx.x == 0 && blockIdx.x < 2) printf(\"block %d here\\n\", blockIdx.x);\n"
                                      "    if (i < n) out[i + 1] = in[i];\n"
                                      "}\n");
    Window window(dir, {kernel.string()});
    const json state = window.wait_for([](const json& s) { return s.contains("last") && s["last"].value("stage", "") == "run"; });
    const json& last = state["last"];
    EXPECT_TRUE(state.value("emulating", false));
    EXPECT_EQ(last.value("error_code", ""), "CUDA_ERROR_ILLEGAL_ADDRESS");
    EXPECT_NE(last.value("error", "").find("wrote 1 byte past the end of 'out' (1024000 bytes) at grayscale/noisy.cu:5"),
              std::string::npos)
        << last.value("error", "");
    EXPECT_EQ(last["emulation"].value("error_line", 0), 5);
    std::vector<std::string> lines = last["emulation"]["printf"].get<std::vector<std::string>>();
    std::sort(lines.begin(), lines.end());
    EXPECT_EQ(lines, (std::vector<std::string>{"[block (0,0,0) thread (0,0,0)] block 0 here", "[block (1,0,0) thread (0,0,0)] block 1 here"}));
}

namespace {

// A declared 1D task small enough for the emulated device on two cores.
const std::string kVectorAddTask = kplay::test::vector_add_task("default=20000 test=1,1025");

struct Screenshot {
    int w = 0, h = 0;
    std::vector<unsigned char> rgb;
    // How many pixels inside [x, x+w) x [y, y+h) are within 30 of the colour.
    int count(const json& rect, int top_percent, int bottom_percent, int r, int g, int b) const {
        const int x0 = static_cast<int>(rect[0].get<float>()), y0 = static_cast<int>(rect[1].get<float>());
        const int rw = static_cast<int>(rect[2].get<float>()), rh = static_cast<int>(rect[3].get<float>());
        int found = 0;
        for (int y = y0 + rh * top_percent / 100; y < y0 + rh * bottom_percent / 100 && y < h; ++y)
            for (int x = x0; x < x0 + rw && x < w; ++x) {
                const unsigned char* p = &rgb[3 * (static_cast<size_t>(y) * w + x)];
                if (std::abs(p[0] - r) <= 30 && std::abs(p[1] - g) <= 30 && std::abs(p[2] - b) <= 30) ++found;
            }
        return found;
    }
};

Screenshot load_screenshot(const fs::path& path) {
    Screenshot shot;
    int channels = 0;
    const std::string png = kplay::test::read_file(path);
    unsigned char* pixels =
        stbi_load_from_memory(reinterpret_cast<const unsigned char*>(png.data()), static_cast<int>(png.size()), &shot.w, &shot.h, &channels, 3);
    if (pixels) shot.rgb.assign(pixels, pixels + 3 * static_cast<size_t>(shot.w) * shot.h);
    stbi_image_free(pixels);
    return shot;
}

}  // namespace

TEST(GuiWindow, A1DTaskShowsItsOutputAgainstItsReference) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = dir.write("vector_add.cu", kVectorAddTask);
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    EXPECT_EQ(state.value("task", ""), "vector_add");
    EXPECT_EQ(state.value("view_kind", ""), "series");
    ASSERT_TRUE(state.contains("shown")) << state.dump().substr(0, 2000);
    EXPECT_TRUE(state["shown"].value("passed", false));
    EXPECT_EQ(state["shown"].value("kind", ""), "series");
    EXPECT_EQ(state["shown"].value("series_count", 0), 20000);
    EXPECT_EQ(state["last"]["check"]["sizes"].size(), 3u);  // 1, 1025 and a second seed
    ASSERT_TRUE(state["view"].contains("series"));
    const Screenshot pixels = load_screenshot(shot);
    ASSERT_GT(pixels.w, 0);
    // The output is drawn (light blue, in the upper plot), and no error bar crosses the pass line (red).
    EXPECT_GT(pixels.count(state["view"]["series"], 10, 55, 110, 180, 255), 2000);
    EXPECT_LT(pixels.count(state["view"]["series"], 60, 95, 242, 89, 89), 50);
}

// A one-element output is a scalar: its value against the reference, drawn from the check alone.
TEST(GuiWindow, AScalarTaskShowsItsValueAgainstItsReference) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = dir.write("sum.cu", R"(// kplay-sizes: n default=5000 test=1
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: total f32[1] out init=zero check=rel:1e-4,abs:1e-6
__global__ void sum(const float* x, float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, x[i]);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* total, int n) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += x[i];
    total[0] = static_cast<float>(s);
}
#endif
)");
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    EXPECT_EQ(state.value("view_kind", ""), "scalar");
    ASSERT_TRUE(state.contains("shown")) << state.dump().substr(0, 2000);
    EXPECT_EQ(state["shown"].value("kind", ""), "scalar");
    EXPECT_TRUE(state["shown"].value("passed", false));
    ASSERT_TRUE(state["view"].contains("scalar")) << state["view"].dump();
    const Screenshot pixels = load_screenshot(shot);
    ASSERT_GT(pixels.w, 0);
    // The large green PASS at the top of the output panel.
    EXPECT_GT(pixels.count(state["view"]["scalar"], 0, 10, 102, 217, 115), 100);
}

TEST(GuiWindow, AFailing1DTaskShowsWhereItFails) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    std::string source = kVectorAddTask;
    const std::string body = "if (i < n) c[i] = a[i] + b[i];";
    source.replace(source.find(body), body.size(), "if (i < n) c[i] = a[i] + (i >= 15000 ? 2.0f : 1.0f) * b[i];");
    const fs::path kernel = dir.write("vector_add.cu", source);
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    ASSERT_TRUE(state.contains("shown")) << state.dump().substr(0, 2000);
    EXPECT_FALSE(state["shown"].value("passed", true));
    EXPECT_EQ(state["last"]["check"]["buffers"][0]["first_bad"]["index"], 15000);
    const Screenshot pixels = load_screenshot(shot);
    ASSERT_GT(pixels.w, 0);
    // The last quarter of the index axis is wrong: red error bars fill that part of the lower plot.
    EXPECT_GT(pixels.count(state["view"]["series"], 60, 95, 242, 89, 89), 2000);
}

// A histogram (view=bars) is drawn as bars beside the image it counts; a wrong bin turns red.
TEST(GuiWindow, AHistogramShowsItsBarsBesideTheImage) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const std::string source = R"(// kplay-task: view=bars
// kplay-sizes: w,h default=160x100 test=3x5
// kplay-buffer: pixels u8[3*w*h] in init=image(interleaved)
// kplay-buffer: bins u32[256] out init=zero check=exact
__global__ void histogram(const unsigned char* pixels, unsigned int* bins, int w, int h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 3 * w * h) atomicAdd(&bins[pixels[i] WRONG], 1u);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const unsigned char* pixels, unsigned int* bins, int w, int h) {
    for (int i = 0; i < 3 * w * h; ++i) ++bins[pixels[i]];
}
#endif
)";
    auto run = [&](const std::string& wrong, const std::string& name) {
        std::string text = source;
        text.replace(text.find("WRONG"), 5, wrong);
        const fs::path kernel = dir.write(name + ".cu", text);
        const fs::path shot = dir.path() / (name + ".png");
        Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "5"});
        EXPECT_EQ(window.wait_exit(), 0);
        return std::make_pair(window.state(), load_screenshot(shot));
    };
    const auto [good, good_pixels] = run("", "good");
    EXPECT_EQ(good.value("view_kind", ""), "bars");
    ASSERT_TRUE(good.contains("shown")) << good.dump().substr(0, 2000);
    EXPECT_TRUE(good["shown"].value("passed", false));
    ASSERT_TRUE(good["view"].contains("bars")) << good["view"].dump();
    ASSERT_TRUE(good["view"].contains("input")) << good["view"].dump();  // the image beside the bars
    ASSERT_GT(good_pixels.w, 0);
    EXPECT_GT(good_pixels.count(good["view"]["bars"], 10, 95, 110, 180, 255), 2000);  // blue bars
    EXPECT_LT(good_pixels.count(good["view"]["bars"], 10, 95, 242, 89, 89), 50);      // none red

    // Every byte counted one bin too high (the top bin's bytes fall into bin 0): the bins are off.
    const auto [bad, bad_pixels] = run(" + 1 & 255", "bad");
    ASSERT_TRUE(bad.contains("shown")) << bad.dump().substr(0, 2000);
    EXPECT_FALSE(bad["shown"].value("passed", true));
    ASSERT_GT(bad_pixels.w, 0);
    EXPECT_GT(bad_pixels.count(bad["view"]["bars"], 10, 95, 242, 89, 89), 2000);  // red bars
}

// The kernel picker offers every ladder of kernels_src, each step with its header's first line.
TEST(GuiWindow, TheKernelPickerListsEveryTaskFolder) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = dir.write("vector_add.cu", kVectorAddTask);
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "3"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    ASSERT_TRUE(state.contains("kernel_picker")) << state.dump().substr(0, 2000);
    for (const auto& file : kplay::test::task_library_files()) {
        const std::string name = file.parent_path().filename().string() + "/" + file.filename().string();
        bool found = false;
        for (const auto& entry : state["kernel_picker"])
            if (entry.value("file", "") == name) {
                found = true;
                EXPECT_NE(entry.value("summary", "").find("Step "), std::string::npos) << name << ": " << entry.dump();
            }
        EXPECT_TRUE(found) << name;
    }
}

// A launch message names limits and values and is longer than the launch panel is wide: it wraps at the
// panel's edge at a 1280-pixel window instead of being cut off ("...at most 1024 per block (").
TEST(GuiWindow, ALongLaunchMessageWrapsInsteadOfBeingClipped) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    dir.write("config/kplay/settings.json", R"({"window_w": 1280, "window_h": 800})");
    std::string source = kplay::test::read_file(kplay::test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu");
    source.replace(source.find("block=tw,tw"), 11, "block=64,64");
    const fs::path kernel = dir.write("matmul/02_big_block.cu", source);
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    ASSERT_TRUE(state.contains("last")) << state.dump().substr(0, 2000);
    EXPECT_EQ(state["last"].value("stage", ""), "launch");
    EXPECT_NE(state["last"].value("error", "").find("at most 1024"), std::string::npos) << state["last"].value("error", "");
    EXPECT_EQ(state.value("text_overflow_px", -1.0), 0.0);
}

// A PNG file's width and height, from its header.
std::pair<int, int> png_size(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char header[24] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    const auto word = [&](int at) { return (header[at] << 24) | (header[at + 1] << 16) | (header[at + 2] << 8) | header[at + 3]; };
    return {word(16), word(20)};
}

// Ctrl+S saves the output under a name of the kernel and the run, in the folder the settings name, says
// where in full, and never writes over an earlier save.
TEST(GuiWindow, SavingTheOutputNamesTheRunAndNeverOverwrites) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    if (run("command -v xdotool >/dev/null") != 0) GTEST_SKIP() << "xdotool is not installed (scripts/install-deps installs it)";
    kplay::test::TempDir dir;
    const fs::path out = dir.path() / "pictures";
    fs::create_directories(out);
    dir.write("config/kplay/settings.json", R"({"output_dir": ")" + out.string() + R"("})");
    const std::string seed = kplay::test::read_file(kplay::test::kernels_dir() / "grayscale/01_seed_1d.cu");
    const fs::path kernel = dir.write("grayscale/01_seed_1d.cu", seed);
    Window window(dir, {kernel.string()});
    window.wait_for([](const json& s) { return s.value("results_received", 0) >= 1 && s.value("has_output", false); });
    ASSERT_EQ(run("timeout 20 xdotool search --sync --name '^kplay' windowfocus --sync >/dev/null 2>&1"), 0);
    ASSERT_EQ(run("xdotool key ctrl+s"), 0);
    json state = window.wait_for([](const json& s) { return s.value("status_message", "").rfind("Saved ", 0) == 0; });
    const fs::path first = out / "01_seed_1d.run1.png";
    EXPECT_EQ(state.value("status_message", ""), "Saved " + first.string());
    EXPECT_TRUE(fs::exists(first));
    const auto first_size = fs::file_size(first);
    // The picture on screen came at most 1024 a side (the built-in image is 1280x800); the PNG is the
    // whole output, its full resolution asked of the worker for the save.
    EXPECT_EQ(png_size(first), std::make_pair(1280, 800));
    EXPECT_EQ(state["output_view"].value("image_w", 0), 1280);

    ASSERT_EQ(run("xdotool key ctrl+s"), 0);
    const fs::path second = out / "01_seed_1d.run1-2.png";
    state = window.wait_for([&](const json& s) { return s.value("status_message", "") == "Saved " + second.string(); });
    EXPECT_TRUE(fs::exists(second));
    EXPECT_EQ(fs::file_size(first), first_size) << "the first save is untouched";
    EXPECT_FALSE(fs::exists(dir.path() / "kplay-output.png"));
    ASSERT_EQ(run("xdotool key ctrl+q"), 0);
    EXPECT_EQ(window.wait_exit(), 0);
}

// Six saves show six points in the History plot (it was drawn with a width ImGui 1.86 does not take, so
// the area stayed blank), and hovering the plot names the run under the mouse.
TEST(GuiWindow, TheHistoryPlotShowsEveryRunAndHoverNamesIt) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    if (run("command -v xdotool >/dev/null") != 0) GTEST_SKIP() << "xdotool is not installed (scripts/install-deps installs it)";
    kplay::test::TempDir dir;
    // A window tall enough that the History panel is on screen below the others.
    dir.write("config/kplay/settings.json", R"({"window_w": 1400, "window_h": 1000, "left_width": 700})");
    std::string seed = kplay::test::read_file(kplay::test::kernels_dir() / "grayscale/01_seed_1d.cu");
    const fs::path kernel = dir.write("grayscale/k.cu", seed);
    Window window(dir, {kernel.string(), "--size", "64x48"});
    window.wait_for([](const json& s) { return s.value("results_received", 0) >= 1; });
    int results = 1;
    for (const std::string block : {"64", "128", "192", "32", "96"}) {
        std::string text = seed;
        text.replace(text.find("block=256"), 9, "block=" + block);
        { std::ofstream(kernel, std::ios::trunc) << text; }
        ++results;
        window.wait_for([&](const json& s) { return s.value("results_received", 0) >= results; });
    }
    json state = window.wait_for([](const json& s) { return s["history_plot"].value("points", 0) >= 6; });
    const auto rect = state["history_plot"]["rect"];
    ASSERT_EQ(rect.size(), 4u);
    EXPECT_GT(rect[2].get<double>(), 100) << "the plot has a width";
    EXPECT_GT(rect[3].get<double>(), 40);
    EXPECT_EQ(state["history"].size(), 6u);

    // Hover the last point (the right end of the plot) if the plot is on screen.
    const int x = static_cast<int>(rect[0].get<double>() + rect[2].get<double>() - 3);
    const int y = static_cast<int>(rect[1].get<double>() + 10);  // near its top: the panel ends at the window's bottom
    ASSERT_LT(y, 980) << "the plot is on screen in this layout";
    {
        ASSERT_EQ(run("timeout 20 xdotool search --sync --name '^kplay' windowfocus --sync mousemove --window %1 " + std::to_string(x) + " " +
                      std::to_string(y) + " >/dev/null 2>&1"),
                  0);
        state = window.wait_for([](const json& s) { return s["history_plot"].value("hovered_run", -1) > 0; });
        EXPECT_EQ(state["history_plot"].value("hovered_run", -1), state["history"].back().value("run", 0));
    }
    ASSERT_EQ(run("timeout 20 xdotool search --sync --name '^kplay' windowfocus --sync key ctrl+q >/dev/null 2>&1"), 0);
    EXPECT_EQ(window.wait_exit(), 0);
}

// Dropping files on the window, through the callback GLFW calls (the --test-drop hook): a kernel opens,
// an image becomes the input, a file that is not text is a clear file error, and a folder is refused
// with a message; none of them takes the window down.
TEST(GuiWindow, DroppedKernelsImagesBadFilesAndFoldersAreHandled) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const std::string seed = kplay::test::read_file(kplay::test::kernels_dir() / "grayscale/01_seed_1d.cu");
    const fs::path first = dir.write("grayscale/first.cu", seed);
    const fs::path second = dir.write("grayscale/second.cu", seed + "\n// the dropped one\n");
    const fs::path binary = dir.write("grayscale/binary.cu", std::string("\x7f" "ELF\0\0\0\x01", 8));
    fs::create_directories(dir.path() / "a folder");
    const fs::path image = dir.path() / "small.png";
    {
        const unsigned char pixels[4 * 3 * 2] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
        ASSERT_NE(stbi_write_png(image.c_str(), 4, 2, 3, pixels, 12), 0);
    }
    auto drop = [&](const fs::path& path, const std::function<bool(const json&)>& done) {
        Window window(dir, {first.string(), "--test-drop", path.string()});
        json state = window.wait_for(done);
        EXPECT_EQ(run("timeout 20 xdotool search --sync --name '^kplay' windowfocus --sync key ctrl+q >/dev/null 2>&1"), 0);
        EXPECT_EQ(window.wait_exit(), 0) << path;
        return state;
    };
    if (run("command -v xdotool >/dev/null") != 0) GTEST_SKIP() << "xdotool is not installed (scripts/install-deps installs it)";

    json state = drop(second, [&](const json& s) { return s.value("file", "") == second.string() && s.value("results_received", 0) >= 2; });
    EXPECT_EQ(state["last"].value("stage", ""), "done");

    state = drop(image, [&](const json& s) { return s.value("image_path", "") == image.string() && s.value("results_received", 0) >= 2; });
    EXPECT_EQ(state["last"].value("sizes", ""), "4x2") << "the dropped image is the input";

    state = drop(binary, [&](const json& s) { return s.value("file", "") == binary.string() && !s.value("file_error", "").empty(); });
    EXPECT_NE(state.value("file_error", "").find("binary.cu"), std::string::npos) << state.value("file_error", "");

    state = drop(dir.path() / "a folder", [](const json& s) { return s.value("status_message", "").find("is a folder") != std::string::npos; });
    EXPECT_EQ(state.value("file", ""), first.string()) << "a folder is not opened";
}

// On a machine without DejaVu the window still finds a scalable sans font, through fontconfig (here a
// fontconfig that knows one other font), and says which in its log.
TEST(GuiWindow, WithoutDejaVuTheFontComesFromFontconfig) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    const fs::path mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
    if (!fs::exists(mono)) GTEST_SKIP() << "needs a font file to offer fontconfig: " << mono << " (fonts-dejavu-core)";
    kplay::test::TempDir dir;
    fs::create_directories(dir.path() / "fonts");
    fs::copy_file(mono, dir.path() / "fonts/OnlyFont.ttf");
    const fs::path conf = dir.write("fonts.conf", "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n  <dir>" +
                                                      (dir.path() / "fonts").string() + "</dir>\n  <cachedir>" + (dir.path() / "fccache").string() +
                                                      "</cachedir>\n</fontconfig>\n");
    const char* previous = std::getenv("FONTCONFIG_FILE");
    const std::string saved = previous ? previous : "";
    setenv("FONTCONFIG_FILE", conf.c_str(), 1);
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {"--screenshot", shot.string(), "--frames", "3"});
    if (previous) setenv("FONTCONFIG_FILE", saved.c_str(), 1);
    else unsetenv("FONTCONFIG_FILE");
    EXPECT_EQ(window.wait_exit(), 0);
    EXPECT_EQ(window.state().value("font", ""), (dir.path() / "fonts/OnlyFont.ttf").string());
}

// The Inside tab on the emulated device: ptxas's figures for sm_90 without a GPU, a selected source
// line lit up in the PTX (the rows linked to it, counted), and an edit that changes the kernel's
// resources shows the change. A kernel that faults has its line marked.
TEST(GuiWindow, TheInsideTabLinksSourceToPtxAndShowsResourceChanges) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    dir.write("config/kplay/settings.json", R"({"window_w": 1600, "window_h": 1000})");
    const std::string step3 = kplay::test::read_file(kplay::test::kernels_dir() / "matmul/03_tiled_static_smem.cu");
    const fs::path kernel = dir.write("matmul/k.cu", step3);
    {
        Window window(dir, {kernel.string(), "--size", "64x64x64", "--tab", "inside", "--select-line", "27"});
        json state = window.wait_for([](const json& s) { return s["inside"].value("run", 0) >= 1 && !s["inside"].value("busy", true); });
        EXPECT_EQ(state.value("right_tab", ""), "inside");
        const json& inside = state["inside"];
        EXPECT_EQ(inside.value("kernel", ""), "matmul_tiled_k<16>");
        EXPECT_EQ(inside.value("arch", ""), "sm_90");
        EXPECT_EQ(inside.value("registers", 0), 32);
        EXPECT_EQ(inside.value("static_smem_bytes", 0), 2048);
        EXPECT_DOUBLE_EQ(inside.value("occupancy", 0.0), 1.0);
        EXPECT_GT(inside.value("ptx_lines", 0), 100);
        EXPECT_EQ(inside.value("highlighted_line", 0), 27);
        EXPECT_EQ(inside["highlighted_rows"][0], 1);
        EXPECT_GE(inside["highlighted_rows"][1].get<int>(), 48);  // the unrolled inner product's PTX
        const int panes = inside.value("sass_lines", 0) > 0 ? 3 : 2;  // without nvdisasm, the SASS pane says why instead
        for (int pane = 0; pane < panes; ++pane) EXPECT_GT(inside["pane_rects"][pane][2].get<double>(), 100) << "pane " << pane << " has a width";

        // A tile of 32 (as the file's header suggests) needs four times the shared memory.
        std::string wider = step3;
        wider.replace(wider.find("kernel=matmul_tiled_k<16>"), 25, "kernel=matmul_tiled_k<32>");
        wider.replace(wider.find("block=16,16"), 11, "block=32,32");
        { std::ofstream(kernel, std::ios::trunc) << wider; }
        state = window.wait_for([](const json& s) { return s["inside"].value("run", 0) >= 2 && !s["inside"].value("busy", true); });
        EXPECT_EQ(state["inside"].value("static_smem_bytes", 0), 8192);
        EXPECT_NE(state["inside"].value("changes", "").find("static smem 2048 \u2192 8192 B"), std::string::npos) << state["inside"].dump();
        EXPECT_EQ(state["inside"].value("previous_run", 0), 1);
        EXPECT_EQ(state["history"][1].value("registers", -1), state["inside"].value("registers", -2));
    }
    // A fault on the emulated device: its line is the one marked in the source (a folder of its own: the
    // first window's state dump must not answer for this one).
    kplay::test::TempDir fault_dir;
    const fs::path fault = fault_dir.write("faults/01.cu", kplay::test::read_file(kplay::test::kernels_dir() / "faults/01_out_of_bounds_write.cu"));
    Window window(fault_dir, {fault.string(), "--tab", "inside"});
    const json state = window.wait_for([](const json& s) { return s["inside"].value("run", -1) >= 0 && s.contains("last") && !s["inside"].value("busy", true); });
    EXPECT_EQ(state["inside"].value("fault_line", 0), 12) << state["inside"].dump() << state["last"].value("error", "");
}

// The Sweep tab: a sweep started as its Start button does fills the time plot, a wrong point is drawn
// red and never wins; over two parameters the plot is a heatmap with the winner's cell.
TEST(GuiWindow, TheSweepTabPlotsEveryPointAndAWrongOneNeverWins) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = fs::path(KPLAY_TEST_DATA_DIR) / "sweep" / "wrong_when_fast.cu";
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--tab", "sweep", "--sweep", "block_x=64..1024 step *2", "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    EXPECT_EQ(state.value("right_tab", ""), "sweep");
    const json sweep = state["sweep"];
    ASSERT_EQ(sweep.value("phase", ""), "done") << sweep.dump();
    EXPECT_EQ(sweep.value("points", 0), 5);
    EXPECT_EQ(sweep.value("passed", 0), 3);
    EXPECT_EQ(sweep.value("wrong", 0), 2);
    EXPECT_EQ(sweep.value("best_state", ""), "passed");
    EXPECT_EQ(sweep["plot"].value("kind", ""), "scatter");
    EXPECT_EQ(sweep["plot"].value("plotted", 0), 5);
    EXPECT_EQ(state.value("text_overflow_px", 1.0), 0.0);
    const Screenshot pixels = load_screenshot(shot);
    ASSERT_GT(pixels.w, 0);
    EXPECT_GT(pixels.count(sweep["plot"]["rect"], 5, 100, 90, 200, 120), 60);  // the passed points, green
    EXPECT_GT(pixels.count(sweep["plot"]["rect"], 5, 100, 242, 89, 89), 20);   // the wrong ones, red crosses
}

TEST(GuiWindow, ASweepOverTwoParametersIsAHeatmap) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = kplay::test::kernels_dir() / "matmul" / "04_2d_register_blocking.cu";
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--size", "32x32x32", "--tab", "sweep", "--sweep", "-DTHREAD_M=4,8; -DTHREAD_N=4,8", "--screenshot",
                        shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json sweep = window.state()["sweep"];
    ASSERT_EQ(sweep.value("phase", ""), "done") << sweep.dump();
    EXPECT_EQ(sweep.value("passed", 0), 4);
    EXPECT_EQ(sweep["plot"].value("kind", ""), "heatmap");
    EXPECT_EQ(sweep["plot"].value("plotted", 0), 4);
    const Screenshot pixels = load_screenshot(shot);
    EXPECT_GT(pixels.count(sweep["plot"]["rect"], 5, 100, 255, 255, 255), 100);  // the winner's white frame
}

// The window with its kernels run elsewhere: over ssh to the test sshd when there is one (CI starts
// it), else through --remote-command. The result shown came over the link, and the status says where.
TEST(GuiWindow, RunsItsKernelsOnARemoteWorkerAndSaysWhere) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path shot = dir.path() / "remote.png";
    const char* host = std::getenv("KPLAY_TEST_SSH_HOST");
    const char* config = std::getenv("KPLAY_TEST_SSH_CONFIG");
    const bool ssh = host && *host && config && *config;
    if (!ssh && std::getenv("KPLAY_REQUIRE_SSH_TESTS")) FAIL() << "no test sshd (scripts/test-sshd)";
    if (ssh) {
        setenv("KPLAY_SSH_COMMAND", (std::string("ssh -F ") + config).c_str(), 1);
        setenv("KPLAY_REMOTE_WORKER", kplay::test::worker_path().c_str(), 1);
    }
    const std::vector<std::string> where =
        ssh ? std::vector<std::string>{"--remote", host} : std::vector<std::string>{"--remote-command", kplay::test::worker_path().string() + " --stdio"};
    std::vector<std::string> args = {"--screenshot", shot.string(), "--frames", "5"};
    args.insert(args.end(), where.begin(), where.end());
    Window window(dir, args);
    EXPECT_EQ(window.wait_exit(), 0);
    unsetenv("KPLAY_SSH_COMMAND");
    unsetenv("KPLAY_REMOTE_WORKER");
    const json state = window.state();
    ASSERT_TRUE(state.contains("remote")) << state.dump().substr(0, 2000);
    EXPECT_TRUE(state["remote"].value("connected", false));
    EXPECT_EQ(state["remote"].value("label", ""), ssh ? std::string(host) : kplay::test::worker_path().filename().string());
    EXPECT_GE(state["remote"].value("link_ms", -1.0), 0);
    EXPECT_GT(state["remote"].value("bytes_received", 0), 1000);
    EXPECT_GE(state.value("results_received", 0), 1);
    EXPECT_TRUE(state.value("has_output", false));
    EXPECT_TRUE(state["last"].value("emulated", false));
    EXPECT_TRUE(state["shown"].value("passed", false));
    EXPECT_TRUE(fs::exists(shot));
}

// The Debug tab, as Run to line and one Step would drive it: the window stops in the chosen thread at the
// line, the step ends in the same thread on the next line, and the locals and the block's shared array
// are shown. The screenshot has the stopped line marked in green.
TEST(GuiWindow, TheDebugTabStopsInTheChosenThreadAndSteps) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    if (kplay::test::run_shell("command -v gdb").first != 0) GTEST_SKIP() << "gdb is not installed (scripts/install-deps installs it)";
    kplay::test::TempDir dir;
    const fs::path kernel = fs::path(KPLAY_TEST_DATA_DIR) / "debug" / "block_sums.cu";
    const fs::path shot = dir.path() / "shot.png";
    Window window(dir, {kernel.string(), "--test-debug", "1,0,0 5,0,0 15 1", "--screenshot", shot.string(), "--frames", "5"});
    // gdb's run to the line and the step take longer than a frame loop's usual wait.
    for (int i = 0; i < 1800 && !fs::exists(shot); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    EXPECT_EQ(state.value("right_tab", ""), "debug");
    const json debug = state["debug"];
    ASSERT_TRUE(debug.contains("stop")) << debug.dump();
    const json stop = debug["stop"];
    EXPECT_EQ(stop.value("state", ""), "stopped") << debug.dump();
    EXPECT_EQ(stop.value("line", 0), 16) << debug.dump();
    EXPECT_EQ(debug.value("last_action", ""), "step");
    EXPECT_EQ(stop["thread"], json::array({5, 0, 0}));
    EXPECT_EQ(stop["block"], json::array({1, 0, 0}));
    EXPECT_EQ(stop["locals"].value("t", ""), "5");
    EXPECT_EQ(stop["locals"].value("i", ""), "261");
    EXPECT_EQ(stop["shared"].value("partial", "").rfind("{640, 642, 644, 646, 648, 650, 262", 0), 0u) << stop.dump();
    EXPECT_NE(debug.value("gpu_note", "").find("GPU path"), std::string::npos);
    EXPECT_EQ(state.value("text_overflow_px", 1.0), 0.0);
    ASSERT_GT(load_screenshot(shot).w, 0);
}

// "Who wrote each element" over a series: vector_add's 5000 elements are 20 blocks of 256 threads along
// the index, a band each (or 19 edges between them), and the hovered element names its writer.
TEST(GuiWindow, WhoWroteEachElementOfASeriesBandsItsBlocks) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = kplay::test::kernels_dir() / "vector_add" / "01_naive.cu";
    for (const auto& [mode, bands] : {std::pair<std::string, int>{"blocks", 20}, {"edges", 19}}) {
        SCOPED_TRACE(mode);
        const fs::path shot = dir.path() / (mode + ".png");
        Window window(dir, {kernel.string(), "--emulated", "--size", "5000", "--test-writers", mode, "--test-hover", "700,0", "--screenshot",
                            shot.string(), "--frames", "5"});
        EXPECT_EQ(window.wait_exit(), 0);
        const json state = window.state();
        const json writers = state["writers"];
        ASSERT_TRUE(writers.contains("map")) << writers.dump();
        EXPECT_EQ(writers["map"].value("cells", 0), 5000);
        EXPECT_EQ(writers["map"].value("blocks", 0), 20);
        EXPECT_EQ(writers["map"].value("series_bands", 0), bands);
        EXPECT_NE(writers.value("hover", "").find("c[700]: written by thread (188,0,0) of block (2,0,0) at vector_add/01_naive.cu:"),
                  std::string::npos)
            << writers.value("hover", "");
        EXPECT_EQ(state.value("text_overflow_px", 1.0), 0.0);
    }
}

// "Who wrote each pixel": the map of the seed's output (64x32, 8 blocks of 256 threads) is made once
// the result is in; the hover line names the writer of the pixel under the cursor, and the blocks
// overlay colours the output view (the gray image alone has no saturated pixel).
TEST(GuiWindow, WhoWroteEachPixelNamesTheWriterAndColoursTheBlocks) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = kplay::test::kernels_dir() / "grayscale" / "01_seed_1d.cu";
    auto saturated = [](const Screenshot& shot, const json& rect) {
        int found = 0;
        const int x0 = static_cast<int>(rect[0].get<float>()), y0 = static_cast<int>(rect[1].get<float>());
        for (int y = y0; y < y0 + static_cast<int>(rect[3].get<float>()) && y < shot.h; ++y)
            for (int x = x0; x < x0 + static_cast<int>(rect[2].get<float>()) && x < shot.w; ++x) {
                const unsigned char* p = &shot.rgb[3 * (static_cast<size_t>(y) * shot.w + x)];
                if (std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]}) > 50) ++found;
            }
        return found;
    };
    for (const std::string mode : {"blocks", "off"}) {
        SCOPED_TRACE(mode);
        const fs::path shot = dir.path() / (mode + ".png");
        Window window(dir, {kernel.string(), "--emulated", "--size", "64x32", "--test-writers", mode, "--test-hover", "10,5", "--screenshot",
                            shot.string(), "--frames", "5"});
        EXPECT_EQ(window.wait_exit(), 0);
        const json state = window.state();
        const json writers = state["writers"];
        ASSERT_TRUE(writers.value("showing", false)) << writers.dump();
        ASSERT_TRUE(writers.contains("map")) << writers.dump();
        EXPECT_EQ(writers["map"].value("cells", 0), 2048);
        EXPECT_EQ(writers["map"].value("blocks", 0), 8);
        EXPECT_EQ(writers["map"].value("unwritten", -1), 0);
        EXPECT_EQ(writers["map"].value("many", -1), 0);
        // Pixel (10, 5) is element 330: thread 74 of block 1, at the seed's store.
        EXPECT_NE(writers.value("hover", "").find("out[330]: written by thread (74,0,0) of block (1,0,0) at grayscale/01_seed_1d.cu:13"),
                  std::string::npos)
            << writers.value("hover", "");
        EXPECT_EQ(state.value("text_overflow_px", 1.0), 0.0);
        const Screenshot pixels = load_screenshot(shot);
        ASSERT_GT(pixels.w, 0);
        const json rect = state["view"]["output"];
        const int area = static_cast<int>(rect[2].get<float>() * rect[3].get<float>());
        if (mode == "blocks") {
            EXPECT_TRUE(writers["map"].value("overlay_drawn", false));
            EXPECT_GT(saturated(pixels, rect), area / 8) << "64x32 fitted to the view's width: its blocks are coloured";
            EXPECT_LT(saturated(pixels, state["view"]["difference"]), area / 100) << "the difference keeps its own colours";
        } else {
            EXPECT_LT(saturated(pixels, rect), area / 100) << "no overlay: the gray output only";
        }
    }
}

// --pool (as Device > Pool's Start): the Sweep tab's sweep runs on the pool's group, each of its two
// workers takes points, and the tab shows each worker; a member that never came up is listed with the
// pool; the workers go back to the pool once the sweep is over.
TEST(GuiWindow, ASweepOverAPoolShowsEachWorker) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path kernel = fs::path(KPLAY_TEST_DATA_DIR) / "sweep" / "wrong_when_fast.cu";
    const fs::path shot = dir.path() / "pool.png";
    const std::string failing = "cmd:" + std::string(KPLAY_TEST_FAKE_WORKER) + " --mode exit-at-start --always";
    Window window(dir, {kernel.string(), "--pool", "local:2", "--pool", failing, "--tab", "sweep", "--sweep", "block_x=64..1024 step *2",
                        "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    const json pool = state["pool"];
    EXPECT_EQ(pool.value("started_spec", ""), "local:2," + failing) << pool.dump();
    ASSERT_EQ(pool["groups"].size(), 1u) << pool.dump();
    EXPECT_EQ(pool["groups"][0].value("title", ""), "cpu (emulated)");
    EXPECT_EQ(pool["groups"][0]["workers"].size(), 2u);
    ASSERT_EQ(pool["failed"].size(), 1u) << pool.dump();
    EXPECT_EQ(pool["failed"][0].value("member", "").rfind("cmd:", 0), 0u);
    EXPECT_EQ(pool.value("sweep_group", 0), 1);
    EXPECT_FALSE(pool.value("lent", true)) << "the workers are back in the pool";
    const json sweep = state["sweep"];
    ASSERT_EQ(sweep.value("phase", ""), "done") << sweep.dump();
    EXPECT_TRUE(sweep.value("on_pool", false));
    ASSERT_EQ(sweep["workers"].size(), 2u) << sweep.dump();
    int points = 0;
    for (const json& worker : sweep["workers"]) {
        EXPECT_GT(worker.value("points_run", 0), 0) << sweep.dump();
        EXPECT_FALSE(worker.value("dropped", true));
        points += worker.value("points_run", 0);
    }
    EXPECT_EQ(points, 5) << sweep.dump();
    EXPECT_EQ(sweep.value("passed", 0), 3);
    EXPECT_EQ(state.value("text_overflow_px", 1.0), 0.0);
    // The pool's spec is kept for the next start of the window.
    std::ifstream settings(dir.path() / "config" / "kplay" / "settings.json");
    EXPECT_EQ(json::parse(settings).value("pool_spec", ""), "local:2," + failing);
}

// README's window line over a pool, as printed (from the checkout's root), with the screenshot hook to
// end it: the sweep runs on the pool's two workers.
TEST(GuiWindow, TheReadmePoolWindowLineRunsAsPrinted) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string prefix = "build/bin/kplay kernels_src/grayscale/01_seed_1d.cu --pool ";
    const size_t at = readme.find(prefix);
    ASSERT_NE(at, std::string::npos) << "README's window pool example";
    const std::string line = readme.substr(at, readme.find('\n', at) - at);
    EXPECT_EQ(line, prefix + "local:2 --tab sweep --sweep \"block_x=32..1024 step *2\"");
    const fs::path root = kplay::test::kernels_dir().parent_path();
    kplay::test::TempDir dir;
    // The words as the shell splits them: the quoted items are one.
    Window window(dir, {(root / "kernels_src/grayscale/01_seed_1d.cu").string(), "--pool", "local:2", "--tab", "sweep", "--sweep",
                        "block_x=32..1024 step *2", "--screenshot", (dir.path() / "shot.png").string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json sweep = window.state()["sweep"];
    ASSERT_EQ(sweep.value("phase", ""), "done") << sweep.dump();
    EXPECT_TRUE(sweep.value("on_pool", false));
    ASSERT_EQ(sweep["workers"].size(), 2u) << sweep.dump();
    EXPECT_GT(sweep["workers"][0].value("points_run", 0), 0) << sweep.dump();
    EXPECT_GT(sweep["workers"][1].value("points_run", 0), 0) << sweep.dump();
}

// --compare (as the Compare tab's button): the file benched on each group of the pool, a fake GPU's
// worker and the emulated device's, a column each against its own ceilings; the workers go back to the
// pool, and nothing spills past the panel.
TEST(GuiWindow, TheCompareTabBenchesTheFileOnEveryGroupOfThePool) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path fake = dir.write("fake_gpu.sh", "#!/bin/sh\nexec '" + std::string(KPLAY_TEST_FAKE_WORKER) + "' --session --gpu \"$@\"\n");
    ::chmod(fake.c_str(), 0755);
    const std::string emulated = "cmd:env KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1 '" + std::string(KPLAY_TEST_WORKER) + "' --stdio";
    const fs::path kernel = kplay::test::kernels_dir() / "grayscale" / "01_seed_1d.cu";
    Window window(dir, {kernel.string(), "--pool", "local:1", "--pool", emulated, "--compare", "--screenshot",
                        (dir.path() / "compare.png").string(), "--frames", "5"},
                  {"KPLAY_WORKER=" + fake.string()});
    EXPECT_EQ(window.wait_exit(), 0);
    const json state = window.state();
    EXPECT_EQ(state.value("right_tab", ""), "compare");
    const json compare = state["compare"];
    EXPECT_FALSE(compare.value("running", true)) << compare.dump().substr(0, 2000);
    EXPECT_EQ(compare.value("problem", "x"), "");
    EXPECT_EQ(compare["titles"], json::array({"Fake GPU sm_90", "cpu (emulated)"})) << compare["titles"].dump();
    const json groups = compare["table"]["groups"];
    ASSERT_EQ(groups.size(), 2u) << compare.dump().substr(0, 2000);
    EXPECT_EQ(groups[0].value("name", ""), "Fake GPU sm_90");
    EXPECT_GT(groups[0]["bench"].value("copy_ceiling_gbps", 0.0), 0) << "the GPU group's own ceiling";
    EXPECT_TRUE(groups[1]["bench"].value("emulated", false));
    for (const json& group : groups) {
        EXPECT_EQ(group.value("failure", "x"), "") << group.dump().substr(0, 1000);
        ASSERT_EQ(group["bench"]["rows"].size(), 1u);
        EXPECT_TRUE(group["bench"]["rows"][0].value("passed", false)) << group.dump().substr(0, 1000);
    }
    EXPECT_FALSE(state["pool"].value("lent", true)) << "the workers are back in the pool";
    EXPECT_EQ(state.value("text_overflow_px", 1.0), 0.0);
}

// A save's checked result is what the window draws first, even when its final answer arrives a few
// milliseconds later and the checked result's arrays take a while to take in (a stand-in GPU worker with
// the arrays a real photo makes: kplay's 517x606 photo, its difference map, the RGB input). The loop's
// trace in the dump shows each checked result taken in on a frame of its own.
TEST(GuiWindow, EachSavesCheckedResultIsDrawnBeforeItsFinalAnswer) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const fs::path fake = dir.write("fake_gpu.sh", "#!/bin/sh\nexec '" + std::string(KPLAY_TEST_FAKE_WORKER) + "' --session --gpu \"$@\"\n");
    ::chmod(fake.c_str(), 0755);
    std::ifstream seed(kplay::test::kernels_dir() / "grayscale" / "01_seed_1d.cu");
    const std::string source((std::istreambuf_iterator<char>(seed)), std::istreambuf_iterator<char>());
    const std::string steering = "// fake: slow 20\n// fake: refine 4\n// fake: image 517 606\n";
    fs::create_directories(dir.path() / "grayscale");
    const fs::path kernel = dir.write("grayscale/01_seed_1d.cu", source + steering);
    Window window(dir, {kernel.string()}, {"KPLAY_WORKER=" + fake.string()});
    window.wait_for([](const json& s) { return s.value("results_received", 0) >= 1 && !s.value("busy", true); });
    constexpr int kSaves = 4;
    for (int save = 1; save <= kSaves; ++save) {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        dir.write("grayscale/01_seed_1d.cu", source + steering + "// save " + std::to_string(save) + "\n");
        window.wait_for([&](const json& s) { return s.value("edit_to_result_ms", json::array()).size() >= static_cast<size_t>(save) && !s.value("busy", true); });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // the next dump
    const json state = window.state();
    const json stages = state.value("edit_stages_ms", json::array());
    ASSERT_EQ(stages.size(), static_cast<size_t>(kSaves)) << stages.dump();
    for (const json& edit : stages) EXPECT_TRUE(edit[3].get<bool>()) << "the checked result was on screen first: " << stages.dump();
    int checked = 0;
    for (const json& event : state.value("loop_trace", json::array())) checked += event[1] == "checked";
    EXPECT_GE(checked, kSaves) << "each taken in on a frame of its own";
    EXPECT_EQ(state["shown"].value("width", 0), 517);
    EXPECT_EQ(state["shown"].value("input_w", 0), 517) << "the input handed on from save to save";
}

// README's window compare line, as printed (from the checkout's root), with the screenshot hook to end it.
TEST(GuiWindow, TheReadmeCompareWindowLineRunsAsPrinted) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string line = "build/bin/kplay kernels_src/grayscale/01_seed_1d.cu --pool local:2 --compare";
    ASSERT_NE(readme.find("\n" + line + "\n"), std::string::npos) << "README's window compare example";
    const fs::path root = kplay::test::kernels_dir().parent_path();
    kplay::test::TempDir dir;
    Window window(dir, {(root / "kernels_src/grayscale/01_seed_1d.cu").string(), "--pool", "local:2", "--compare",
                        "--screenshot", (dir.path() / "shot.png").string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    const json compare = window.state()["compare"];
    EXPECT_EQ(compare["titles"], json::array({"cpu (emulated)"})) << compare.dump().substr(0, 2000);
    ASSERT_EQ(compare["table"]["groups"].size(), 1u) << compare.dump().substr(0, 2000);
    EXPECT_TRUE(compare["table"]["groups"][0]["bench"]["rows"][0].value("passed", false));
}

// A window closed while its pool is still coming up (a member that never answers, as a Slurm queue or a
// slow login) ends at once, and ends that member's command too, rather than waiting for --pool-timeout.
TEST(GuiWindow, ClosingWhileAPoolStartsWaitsForNoOneAndLeavesNothingRunning) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const std::string marker = "sleep 37." + std::to_string(getpid());  // a command no other test runs
    const auto start = std::chrono::steady_clock::now();
    Window window(dir, {"--pool", "cmd:" + marker, "--screenshot", (dir.path() / "shot.png").string(), "--frames", "3"});
    EXPECT_EQ(window.wait_exit(), 0);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
    const json pool = window.state()["pool"];
    EXPECT_TRUE(pool.value("starting", false)) << pool.dump();
    EXPECT_EQ(pool["groups"].size(), 0u);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    // "[s]leep": the pattern does not match the shell that runs pgrep, whose own command line holds it.
    EXPECT_NE(run("pgrep -f '[s]" + marker.substr(1) + "' >/dev/null"), 0) << marker << " still runs";
}

namespace {

// Samples 11x11 points across the image in `view` (a rect of the dumped state) and counts those whose
// screen pixel is within 24 of `expected(channel, x, y)` (0..255) as the shader samples it there:
// bilinearly between image pixels. Returns {matched, checked}.
std::pair<int, int> matching_points(const json& state, const Screenshot& shot, const char* view, int image_w, int image_h,
                                    const std::function<float(int, int, int)>& expected) {
    if (!state["view"].contains(view)) return {0, 0};
    const auto rect = state["view"][view];
    const float scale = state["view"]["scale"], ox = state["view"]["offset"][0], oy = state["view"]["offset"][1];
    const float left = rect[0].get<float>() + ox, top = rect[1].get<float>() + oy;
    auto at = [&](int c, int x, int y) { return expected(c, std::clamp(x, 0, image_w - 1), std::clamp(y, 0, image_h - 1)); };
    int matched = 0, checked = 0;
    for (int iy = 1; iy < 12; ++iy)
        for (int ix = 1; ix < 12; ++ix) {
            const int sx = static_cast<int>(left + scale * image_w * ix / 12.0f), sy = static_cast<int>(top + scale * image_h * iy / 12.0f);
            if (sx < 0 || sy < 0 || sx >= shot.w || sy >= shot.h) continue;
            const float u = (sx + 0.5f - left) / scale - 0.5f, v = (sy + 0.5f - top) / scale - 0.5f;
            const int x0 = static_cast<int>(std::floor(u)), y0 = static_cast<int>(std::floor(v));
            const float fx = u - x0, fy = v - y0;
            int diff = 0;
            for (int c = 0; c < 3; ++c) {
                const float want = (1 - fy) * ((1 - fx) * at(c, x0, y0) + fx * at(c, x0 + 1, y0)) +
                                   fy * ((1 - fx) * at(c, x0, y0 + 1) + fx * at(c, x0 + 1, y0 + 1));
                diff = std::max(diff, static_cast<int>(std::abs(shot.rgb[3 * (static_cast<size_t>(sy) * shot.w + sx) + c] - want)));
            }
            ++checked;
            if (diff <= 24) ++matched;
        }
    return {matched, checked};
}

// A window on the kernel file `name`.cu holding `source`: its state and screenshot after the first result.
std::pair<json, Screenshot> shown_in_window(const kplay::test::TempDir& dir, const std::string& name, const std::string& source) {
    const fs::path kernel = dir.write(name + ".cu", source);
    const fs::path shot = dir.path() / (name + ".png");
    Window window(dir, {kernel.string(), "--screenshot", shot.string(), "--frames", "5"});
    EXPECT_EQ(window.wait_exit(), 0);
    return {window.state(), load_screenshot(shot)};
}

// The built-in image at the size a run used, as the window's input view shows it.
kplay::PlanarImage shown_image(const json& state) {
    return kplay::make_default_image(state["shown"].value("input_w", 1), state["shown"].value("input_h", 1));
}

}  // namespace

// An RGBA output (shape=h,w,4) is drawn in colour, its alpha left out: a kernel that swaps red and blue of
// uchar4 pixels and writes alpha 0 shows the swapped picture, opaque, beside the input.
TEST(GuiWindow, AnRgbaOutputIsDrawnInColourWithoutItsAlpha) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const auto [state, pixels] = shown_in_window(dir, "swap_rb", R"(// kplay-sizes: w,h default=320x200 test=3x5
// kplay-buffer: rgba u8[4*w*h] in init=image(rgba)
// kplay-buffer: out u8[4*w*h] out shape=h,w,4
// kplay: launch=2d block=16,16
__global__ void swap_rb(const uchar4* rgba, uchar4* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 p = rgba[y * w + x];
    out[y * w + x] = make_uchar4(p.z, p.y, p.x, 0);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const uchar4* rgba, uchar4* out, int w, int h) {
    for (int i = 0; i < w * h; ++i) out[i] = make_uchar4(rgba[i].z, rgba[i].y, rgba[i].x, 0);
}
#endif
)");
    EXPECT_EQ(state.value("view_kind", ""), "image");
    ASSERT_TRUE(state.contains("shown")) << state.dump().substr(0, 2000);
    EXPECT_TRUE(state["shown"].value("passed", false)) << state["last"].dump().substr(0, 2000);
    EXPECT_EQ(state["output_view"].value("channels", 0), 4);
    EXPECT_EQ(state["output_view"].value("white", 0.0), 255.0);
    ASSERT_GT(pixels.w, 0);
    const kplay::PlanarImage image = shown_image(state);
    ASSERT_EQ(image.width, 320);
    auto plane = [&](int c, int x, int y) { return static_cast<float>(image.planes[c * image.pixels() + static_cast<size_t>(y) * image.width + x]); };
    const auto [input_matched, input_checked] =
        matching_points(state, pixels, "input", image.width, image.height, [&](int c, int x, int y) { return plane(c, x, y); });
    EXPECT_GE(input_checked, 100);
    EXPECT_GE(input_matched, input_checked * 9 / 10) << input_matched << " of " << input_checked << " input points are the image";
    const auto [matched, checked] =
        matching_points(state, pixels, "output", image.width, image.height, [&](int c, int x, int y) { return plane(2 - c, x, y); });
    EXPECT_GE(checked, 100);
    EXPECT_GE(matched, checked * 9 / 10) << matched << " of " << checked << " output points are the image with red and blue swapped";
}

// A float image in 0..1 (README's blur) is drawn like bytes: its output view is the blurred picture, and a
// kernel 12% too bright is drawn red in the difference view, where the right one is dark.
TEST(GuiWindow, AFloatImageOutputIsDrawnOverItsInputsRange) {
    if (const std::string why = why_no_display(); !why.empty()) GTEST_SKIP() << why;
    kplay::test::TempDir dir;
    const std::string source = kplay::test::readme_example("blur_float_rgb.cu");
    ASSERT_NE(source.find("sum.x / 9"), std::string::npos);
    const auto [good, good_pixels] = shown_in_window(dir, "blur", source);
    EXPECT_EQ(good.value("view_kind", ""), "image");
    ASSERT_TRUE(good.contains("shown")) << good.dump().substr(0, 2000);
    EXPECT_TRUE(good["shown"].value("passed", false)) << good["last"].dump().substr(0, 2000);
    EXPECT_EQ(good["output_view"].value("channels", 0), 3);
    EXPECT_EQ(good["output_view"].value("white", 0.0), 1.0);
    ASSERT_GT(good_pixels.w, 0);
    const kplay::PlanarImage image = shown_image(good);
    ASSERT_EQ(image.width, 320);
    // The blurred byte: the mean of the 3x3 neighbourhood (edges clamped), as the kernel's mean of value/255.
    auto blurred = [&](int c, int x, int y) {
        float sum = 0;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int sx = std::clamp(x + dx, 0, image.width - 1), sy = std::clamp(y + dy, 0, image.height - 1);
                sum += image.planes[c * image.pixels() + static_cast<size_t>(sy) * image.width + sx];
            }
        return sum / 9;
    };
    const auto [matched, checked] = matching_points(good, good_pixels, "output", image.width, image.height, blurred);
    EXPECT_GE(checked, 100);
    EXPECT_GE(matched, checked * 9 / 10) << matched << " of " << checked << " output points are the blurred image";
    ASSERT_TRUE(good["view"].contains("difference"));
    EXPECT_LT(good_pixels.count(good["view"]["difference"], 0, 100, 160, 25, 25), 50);  // nothing too bright

    std::string brighter = source;
    brighter.replace(brighter.find("sum.x / 9"), 9, "sum.x / 8");  // the kernel's red only, not the reference's
    const auto [bad, bad_pixels] = shown_in_window(dir, "brighter", brighter);
    ASSERT_TRUE(bad.contains("shown")) << bad.dump().substr(0, 2000);
    EXPECT_FALSE(bad["shown"].value("passed", true));
    ASSERT_GT(bad_pixels.w, 0);
    // Red 12% too bright: 0.06 on average, 15 in bytes, drawn (0.5 + 0.5 * 15/64) red.
    EXPECT_GT(bad_pixels.count(bad["view"]["difference"], 0, 100, 160, 25, 25), 2000);
}
