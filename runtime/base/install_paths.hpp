// Where kplay finds its own files at run time: kernels_src (with include/kplay.cuh and the photos in
// images/), the window's shaders, the CUDA headers and the emulated device's prelude. The one place that
// answers it, for every program.
#pragma once

#include <filesystem>

namespace kplay {

// The installed layout's data folder for programs in `bin_dir` (bin_dir/../share/kplay, as the build's
// install rules put it): what `cmake --install`, the Debian package and `kplay-cli remote-install` lay down.
std::filesystem::path installed_data_dir(const std::filesystem::path& bin_dir);

// KPLAY_KERNELS_DIR, else the installed `<exe>/../share/kplay/kernels_src`, else the source tree the
// program was built from, else a kernels_src folder found above the executable or the working directory.
// Empty when none exists.
std::filesystem::path kernels_dir();

// The seed kernel the window opens when no file is given and none was open last time: the first step
// of the first ladder.
std::filesystem::path seed_kernel_path();

// KPLAY_CUDA_INCLUDE, else the toolkit include folder found at build time, else /usr/local/cuda/include.
std::filesystem::path cuda_include_dir();

// KPLAY_EMU_INCLUDE, else the installed `<exe>/../share/kplay/emu/include`, else the source tree's
// runtime/emu/include, else one found above the executable or the working directory
// (kplay_emu_prelude.h and the stand-in headers).
std::filesystem::path emulated_include_dir();

// KPLAY_SHADERS_DIR, else the installed `<exe>/../share/kplay/shaders`, else the source tree's shaders/,
// else one found above the executable. Empty when none exists.
std::filesystem::path shaders_dir();

}  // namespace kplay
