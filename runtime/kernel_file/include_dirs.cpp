// Resolving a kernel's header folders: the annotation's beside the file, the user's as given.
#include "kernel_file/include_dirs.hpp"

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/nvrtc_options.hpp"

namespace kplay {

namespace fs = std::filesystem;

std::vector<fs::path> file_include_dirs(const KernelSpec& spec, const fs::path& kernel_path) {
    std::vector<fs::path> dirs;
    const fs::path base = fs::absolute(kernel_path).parent_path();
    for (const std::string& dir : spec.include_dirs) {
        const fs::path resolved = (fs::path(dir).is_absolute() ? fs::path(dir) : base / dir).lexically_normal();
        std::error_code error;
        if (!fs::is_directory(resolved, error))
            throw InputError(kernel_path.filename().string() + ": include=" + dir + ": no folder " + resolved.string() +
                             " (include= folders are resolved beside the kernel file)");
        dirs.push_back(resolved);
    }
    return dirs;
}

std::vector<fs::path> split_include_path(const std::string& value) {
    std::vector<fs::path> dirs;
    for (const std::string& item : split_list(value, ':')) {
        const std::string dir = trim(item);
        if (!dir.empty()) dirs.push_back(fs::absolute(dir).lexically_normal());
    }
    return dirs;
}

std::vector<std::string> kernel_include_dirs(const KernelSpec& spec, const fs::path& kernel_path, const std::vector<std::string>& extra) {
    std::vector<std::string> dirs;
    for (const fs::path& dir : file_include_dirs(spec, kernel_path)) dirs.push_back(dir.string());
    dirs.insert(dirs.end(), extra.begin(), extra.end());
    return dirs;
}

std::optional<KernelSpec> file_build_settings(std::string_view source, const fs::path& kernel_path) {
    std::optional<Annotation> annotation;
    try {
        annotation = find_annotation(source);
    } catch (const InputError&) {
        return std::nullopt;  // the spec's own error already says what is wrong with the line
    }
    if (!annotation) return std::nullopt;
    KernelSpec spec;
    const std::string at = kernel_path.filename().string() + ":" + std::to_string(annotation->line) + ": kplay annotation: ";
    for (const auto& [key, value] : annotation->entries) {
        if (key == "include")
            for (const auto& dir : split_list(value)) spec.include_dirs.push_back(dir);
        if (key != "nvrtc") continue;
        try {
            const std::vector<std::string> options = parse_nvrtc_options(value);
            spec.nvrtc_options.insert(spec.nvrtc_options.end(), options.begin(), options.end());
        } catch (const InputError& error) {
            throw InputError(at + error.what());
        }
    }
    return spec;
}

}  // namespace kplay
