// The kernel catalogue for the picker, and the window's file outputs (output PNG, history export).
#include "app_state.hpp"

#include <imgui.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "session/torch_copy.hpp"
#include "values/output_png.hpp"

namespace kplay::window {

namespace fs = std::filesystem;

void AppState::say(const std::string& message, double seconds) {
    status_message = message;
    status_until = ImGui::GetTime() + seconds;
}

std::vector<KernelEntry> list_kernels(const fs::path& kernels_dir) {
    std::vector<KernelEntry> entries;
    std::error_code error;
    if (kernels_dir.empty() || !fs::is_directory(kernels_dir, error)) return entries;
    for (const auto& folder : fs::directory_iterator(kernels_dir, error)) {
        if (!folder.is_directory() || folder.path().filename() == "include") continue;
        for (const auto& file : fs::directory_iterator(folder.path(), error)) {
            if (file.path().extension() != ".cu") continue;
            KernelEntry entry{folder.path().filename().string(), file.path(), ""};
            // The first comment line that is not the annotation: what the file is about.
            std::string text;
            read_whole_file(file.path(), text);
            size_t at = 0;
            while (at < text.size()) {
                const size_t end = text.find('\n', at);
                std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
                at = end == std::string::npos ? text.size() : end + 1;
                if (line.rfind("//", 0) != 0) break;
                line = line.substr(2);
                const auto first = line.find_first_not_of(' ');
                if (first == std::string::npos || line.find("kplay:") != std::string::npos || line.find("expect:") != std::string::npos)
                    continue;
                entry.summary = line.substr(first);
                break;
            }
            entries.push_back(std::move(entry));
        }
    }
    std::sort(entries.begin(), entries.end(), [](const KernelEntry& a, const KernelEntry& b) {
        return a.task != b.task ? (a.task == "faults") < (b.task == "faults") || (a.task != "faults" && b.task != "faults" && a.task < b.task)
                                : a.path < b.path;
    });
    return entries;
}

fs::path output_png_path(const fs::path& dir, const fs::path& kernel, int run) {
    const std::string stem = (kernel.empty() ? std::string("kplay-output") : kernel.stem().string()) + ".run" + std::to_string(run);
    std::error_code error;
    fs::path path = dir / (stem + ".png");
    for (int copy = 2; fs::exists(path, error); ++copy) path = dir / (stem + "-" + std::to_string(copy) + ".png");
    return path;
}

std::string save_output_png(const KernelSession& session, const fs::path& dir) {
    const auto& shown = session.shown();
    if (!shown) return "Nothing to save yet: no kernel has produced output.";
    const OutputView& view = shown->view;
    std::error_code error;
    const fs::path folder = fs::absolute(dir.empty() ? fs::current_path(error) : dir, error);
    if (!fs::is_directory(folder, error)) return "Cannot save: the output folder " + folder.string() + " does not exist (File menu).";
    const int run = session.history().empty() ? 0 : session.history().back().run;
    const fs::path path = output_png_path(folder, session.file(), run);
    try {
        if (!save_output_view_png(view, path))
            return std::string("Nothing to save as PNG: this task's output is a ") + spec_name(view.kind) + ".";
    } catch (const InputError& caught) {
        return caught.what();
    }
    return "Saved " + path.string();
}

std::string copy_as_pytorch(const KernelSession& session) {
    std::string snippet;
    try {
        snippet = torch_snippet_of(session);
    } catch (const InputError& error) {
        return std::string("Copy as PyTorch: ") + error.what();
    }
    ImGui::SetClipboardText(snippet.c_str());  // GLFW's clipboard, through the ImGui backend
    return "Copied a PyTorch snippet of " + session.file().filename().string() +
           " (paste it into a notebook: it builds the kernel, runs it and checks it against PyTorch)";
}

std::string export_history(const KernelSession& session, const fs::path& path) {
    std::ofstream out(path);
    if (!out) return "Cannot write " + path.string();
    if (path.extension() == ".json") {
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& h : session.history())
            runs.push_back({{"run", h.run}, {"time", h.time_of_day}, {"source_hash", h.source_hash}, {"kernel", h.kernel},
                            {"launch", h.launch}, {"median_ms", h.median_ms}, {"min_ms", h.min_ms}, {"max_ms", h.max_ms},
                            {"sizes", h.sizes}, {"gbps", h.gbps}, {"percent_of_ceiling", h.percent_of_ceiling}, {"gflops", h.gflops},
                            {"compile_ms", h.compile_ms}, {"cache_hit", h.cache_hit}, {"passed", h.passed},
                            {"edit_to_result_ms", h.latency_ms}});
        out << nlohmann::json{{"file", session.file().string()}, {"runs", runs}}.dump(2) << "\n";
    } else {
        out << "run,time,source_hash,kernel,launch,sizes,median_ms,min_ms,max_ms,gbps,percent_of_ceiling,gflops,compile_ms,cache_hit,passed,edit_to_result_ms\n";
        for (const auto& h : session.history())
            out << h.run << "," << h.time_of_day << "," << h.source_hash << "," << h.kernel << ",\"" << h.launch << "\"," << h.sizes << ","
                << h.median_ms << "," << h.min_ms << "," << h.max_ms << "," << h.gbps << "," << h.percent_of_ceiling << ","
                << h.gflops << "," << h.compile_ms << "," << h.cache_hit << "," << h.passed << "," << h.latency_ms << "\n";
    }
    return out ? "Exported " + std::to_string(session.history().size()) + " runs to " + path.string() : "Cannot write " + path.string();
}

}  // namespace kplay::window
