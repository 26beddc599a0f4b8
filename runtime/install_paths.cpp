// Resolution of run-time paths; the build bakes in the source tree, which a copied tree may not have.
#include "install_paths.hpp"

#include <unistd.h>

#include <cstdlib>

namespace kplay {

namespace fs = std::filesystem;

namespace {

bool has_kplay_header(const fs::path& dir) {
    std::error_code error;
    return fs::is_regular_file(dir / "include" / "kplay.cuh", error);
}

fs::path search_upwards(fs::path start) {
    for (int depth = 0; depth < 6 && !start.empty(); ++depth) {
        if (has_kplay_header(start / "kernels_src")) return start / "kernels_src";
        if (start == start.parent_path()) break;
        start = start.parent_path();
    }
    return {};
}

}  // namespace

fs::path kernels_dir() {
    if (const char* env = std::getenv("KPLAY_KERNELS_DIR"); env && *env) return env;
#ifdef KPLAY_SOURCE_KERNELS_DIR
    if (has_kplay_header(KPLAY_SOURCE_KERNELS_DIR)) return KPLAY_SOURCE_KERNELS_DIR;
#endif
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (!error)
        if (fs::path found = search_upwards(exe.parent_path()); !found.empty()) return found;
    return search_upwards(fs::current_path(error));
}

fs::path cuda_include_dir() {
    if (const char* env = std::getenv("KPLAY_CUDA_INCLUDE"); env && *env) return env;
    std::error_code error;
#ifdef KPLAY_BUILD_CUDA_INCLUDE_DIR
    if (fs::is_regular_file(fs::path(KPLAY_BUILD_CUDA_INCLUDE_DIR) / "cuda_fp16.h", error)) return KPLAY_BUILD_CUDA_INCLUDE_DIR;
#endif
    return "/usr/local/cuda/include";
}

}  // namespace kplay
