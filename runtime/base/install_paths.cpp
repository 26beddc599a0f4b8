// Resolution of run-time paths: an installed program's own share/kplay first, so that it never reads
// the source tree it was built from; then the source tree the build bakes in, which a copied tree may
// not have; then a search above the program.
#include "base/install_paths.hpp"

#include <unistd.h>

#include <cstdlib>

namespace kplay {

namespace fs = std::filesystem;

namespace {

bool has_kplay_header(const fs::path& dir) {
    std::error_code error;
    return fs::is_regular_file(dir / "include" / "kplay.cuh", error);
}

// The first folder at or above `start` (up to 6 levels) holding `relative / marker`, as that folder
// (`start/.../relative`); empty when none does.
fs::path search_upwards(fs::path start, const fs::path& relative, const fs::path& marker) {
    std::error_code error;
    for (int depth = 0; depth < 6 && !start.empty(); ++depth) {
        if (fs::is_regular_file(start / relative / marker, error)) return start / relative;
        if (start == start.parent_path()) break;
        start = start.parent_path();
    }
    return {};
}

fs::path own_executable() {
    std::error_code error;
    fs::path exe = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::path() : exe;
}

// `<exe>/../share/kplay/relative` when it holds `marker`: the installed layout.
fs::path installed(const fs::path& relative, const fs::path& marker) {
    const fs::path exe = own_executable();
    if (exe.empty()) return {};
    const fs::path dir = installed_data_dir(exe.parent_path()) / relative;
    std::error_code error;
    return fs::is_regular_file(dir / marker, error) ? dir : fs::path();
}

// Above the executable, then above the working directory.
fs::path search_near_program(const fs::path& relative, const fs::path& marker) {
    if (const fs::path exe = own_executable(); !exe.empty())
        if (fs::path found = search_upwards(exe.parent_path(), relative, marker); !found.empty()) return found;
    std::error_code error;
    return search_upwards(fs::current_path(error), relative, marker);
}

}  // namespace

fs::path installed_data_dir(const fs::path& bin_dir) {
#ifndef KPLAY_INSTALLED_DATA_FROM_BIN
#define KPLAY_INSTALLED_DATA_FROM_BIN "../share/kplay"  // GNUInstallDirs' bin/ and share/
#endif
    return (bin_dir / KPLAY_INSTALLED_DATA_FROM_BIN).lexically_normal();
}

fs::path kernels_dir() {
    if (const char* env = std::getenv("KPLAY_KERNELS_DIR"); env && *env) return env;
    if (fs::path dir = installed("kernels_src", fs::path("include") / "kplay.cuh"); !dir.empty()) return dir;
#ifdef KPLAY_SOURCE_KERNELS_DIR
    if (has_kplay_header(KPLAY_SOURCE_KERNELS_DIR)) return KPLAY_SOURCE_KERNELS_DIR;
#endif
    return search_near_program("kernels_src", fs::path("include") / "kplay.cuh");
}

fs::path seed_kernel_path() { return kernels_dir() / "grayscale/01_seed_1d.cu"; }

fs::path cuda_include_dir() {
    if (const char* env = std::getenv("KPLAY_CUDA_INCLUDE"); env && *env) return env;
    std::error_code error;
#ifdef KPLAY_BUILD_CUDA_INCLUDE_DIR
    if (fs::is_regular_file(fs::path(KPLAY_BUILD_CUDA_INCLUDE_DIR) / "cuda_fp16.h", error)) return KPLAY_BUILD_CUDA_INCLUDE_DIR;
#endif
    return "/usr/local/cuda/include";
}

fs::path emulated_include_dir() {
    if (const char* env = std::getenv("KPLAY_EMU_INCLUDE"); env && *env) return env;
    if (fs::path dir = installed(fs::path("emu") / "include", "kplay_emu_prelude.h"); !dir.empty()) return dir;
    std::error_code error;
#ifdef KPLAY_SOURCE_EMU_INCLUDE_DIR
    if (fs::is_regular_file(fs::path(KPLAY_SOURCE_EMU_INCLUDE_DIR) / "kplay_emu_prelude.h", error)) return KPLAY_SOURCE_EMU_INCLUDE_DIR;
#endif
    return search_near_program(fs::path("runtime") / "emu" / "include", "kplay_emu_prelude.h");
}

fs::path shaders_dir() {
    if (const char* env = std::getenv("KPLAY_SHADERS_DIR"); env && *env) return env;
    if (fs::path dir = installed("shaders", "image_view.frag"); !dir.empty()) return dir;
    std::error_code error;
#ifdef KPLAY_SOURCE_SHADERS_DIR
    if (fs::is_regular_file(fs::path(KPLAY_SOURCE_SHADERS_DIR) / "image_view.frag", error)) return KPLAY_SOURCE_SHADERS_DIR;
#endif
    return search_near_program("shaders", "image_view.frag");
}

}  // namespace kplay
