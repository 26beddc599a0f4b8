// Reading a kernel file's #include lines for includes_heavy_headers.
#include "compile/heavy_headers.hpp"

#include <array>
#include <cctype>

#include "compile/nvrtc_host_headers.hpp"

namespace kplay {

namespace {

// Libraries that are large however they are included, "quoted" from an include= folder or <angled>.
constexpr std::array kLibraries = {"cub/", "cuda/", "thrust/", "cute/", "cutlass/", "cooperative_groups", "cuda_fp16", "cuda_bf16",
                                   "cuda_fp8", "cuda_fp6", "cuda_fp4", "mma.h", "cuda_pipeline", "cuda_awbarrier"};

bool is_stand_in(std::string_view name) {
    for (const NvrtcHeader& header : nvrtc_host_headers())
        if (name == header.name) return true;
    return false;
}

bool is_library(std::string_view name) {
    for (std::string_view library : kLibraries)
        if (name.substr(0, library.size()) == library) return true;
    return false;
}

std::string_view skip_blanks(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    return text;
}

// The name in `<name>` or `"name"` of one line's #include, and whether it was angled; empty: no include.
std::string_view included_name(std::string_view line, bool& angled) {
    line = skip_blanks(line);
    if (line.empty() || line.front() != '#') return {};
    line = skip_blanks(line.substr(1));
    if (line.substr(0, 7) != "include") return {};
    line = skip_blanks(line.substr(7));
    if (line.empty() || (line.front() != '<' && line.front() != '"')) return {};
    angled = line.front() == '<';
    const size_t end = line.find(angled ? '>' : '"', 1);
    return end == std::string_view::npos ? std::string_view() : line.substr(1, end - 1);
}

}  // namespace

bool includes_heavy_headers(std::string_view source) {
    size_t begin = 0;
    while (begin < source.size()) {
        size_t end = source.find('\n', begin);
        if (end == std::string_view::npos) end = source.size();
        bool angled = false;
        const std::string_view name = included_name(source.substr(begin, end - begin), angled);
        if (!name.empty() && (is_library(name) || (angled && !is_stand_in(name)))) return true;
        begin = end + 1;
    }
    return false;
}

}  // namespace kplay
