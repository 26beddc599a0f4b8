// The header folders a kernel's compiles search, beyond its own folder: the annotation's `include=`
// (resolved beside the kernel file, so a file and its headers move together) and the user's settings
// (KPLAY_INCLUDE_PATH, kplay-cli -I), in that order.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/kernel_spec.hpp"

namespace kplay {

// The spec's include= folders made absolute against the kernel file's folder. Throws InputError naming
// the folder when one is not a folder ("include=../hdr: no folder /a/hdr (resolved beside the file)").
std::vector<std::filesystem::path> file_include_dirs(const KernelSpec& spec, const std::filesystem::path& kernel_path);

// "a:b::c" (a KPLAY_INCLUDE_PATH value) -> {a, b, c}, each made absolute against the working directory.
std::vector<std::filesystem::path> split_include_path(const std::string& value);

// Every folder a compile of this file searches before kplay's own: include= then the user's `extra`.
std::vector<std::string> kernel_include_dirs(const KernelSpec& spec, const std::filesystem::path& kernel_path,
                                             const std::vector<std::string>& extra);

// Only the annotation's build keys (nvrtc=, include=), for a file whose spec does not resolve (kplay-cli
// compile still compiles it): nullopt without an annotation. Throws InputError for a refused option.
std::optional<KernelSpec> file_build_settings(std::string_view source, const std::filesystem::path& kernel_path);

}  // namespace kplay
