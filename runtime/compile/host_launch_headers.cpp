// Finding #include lines of host-launching libraries (CUB's device-wide layer, Thrust) in a kernel's text.
#include "compile/host_launch_headers.hpp"

#include "base/cache_dir.hpp"
#include "base/text.hpp"
#include "compile/cub_stand_in.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// Why the header cannot work here and what does, or empty for a header that is fine.
std::string refusal_for(const std::string& header) {
    const auto starts = [&](std::string_view prefix) { return header.rfind(prefix, 0) == 0; };
    if (starts("cub/device/") || starts("cub/dispatch/"))
        return "<" + header + "> is CUB's device-wide layer (cub::DeviceReduce, DeviceScan, DeviceRadixSort, ...): those functions "
               "launch kernels from the host through the CUDA runtime, which NVRTC device code does not have. " +
               cub_device_wide_advice() + " <cub/cub.cuh> gives the block and warp primitives without this layer.";
    if (starts("thrust/"))
        return "<" + header + "> is Thrust: its algorithms launch kernels from the host through the CUDA runtime, which NVRTC device "
               "code does not have. Write the kernel itself, with CUB's block and warp primitives (<cub/cub.cuh>) and cuda::std for "
               "the utilities (<cuda/std/utility>, <cuda/std/functional>), and for several passes a task of several launches (one "
               "// kplay-launch: line for each; README, \"A task of several launches\").";
    return {};
}

void scan(std::string_view text, const std::string& file, std::vector<Diagnostic>& errors) {
    const std::vector<std::string_view> lines = split_lines(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        char opening = 0;
        std::string name;
        if (!match_include_line(lines[i], opening, name)) continue;
        std::string why = refusal_for(name);
        if (why.empty()) continue;
        Diagnostic error;
        error.file = file;
        error.line = static_cast<int>(i + 1);
        error.column = static_cast<int>(lines[i].find('#') + 1);
        error.message = std::move(why);
        error.source_line = std::string(lines[i]);
        errors.push_back(std::move(error));
    }
}

}  // namespace

std::vector<Diagnostic> host_launch_header_errors(std::string_view source, const std::string& source_path,
                                                  const std::vector<std::string>& include_dirs) {
    std::vector<Diagnostic> errors;
    scan(source, source_path.empty() ? "kernel.cu" : source_path, errors);
    // The user's folders only: the toolkit's (the one holding cuda.h) includes these headers itself.
    std::vector<fs::path> search;
    for (const std::string& dir : include_dirs) {
        std::error_code error;
        if (!fs::exists(fs::path(dir) / "cuda.h", error)) search.emplace_back(dir);
    }
    for (const fs::path& header : find_included_files(source, fs::path(source_path).parent_path(), search)) {
        std::string text;
        if (read_whole_file(header, text)) scan(text, header.string(), errors);
    }
    return errors;
}

}  // namespace kplay
