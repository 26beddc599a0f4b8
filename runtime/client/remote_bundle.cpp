// Bundling a run's files on the client and writing them into the host's private folder.
#include "client/remote_bundle.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <set>

#include "base/cache_dir.hpp"
#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "kernel_file/include_dirs.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

void add_with_includes(nlohmann::json& files, std::set<fs::path>& seen, const fs::path& path, const std::string& text,
                       const std::vector<fs::path>& folders = {}) {
    if (!seen.insert(path).second || files.size() >= kMaxBundledFiles) return;
    files.push_back({{"path", path.string()}, {"text", text}});
    std::vector<fs::path> search{path.parent_path()};
    search.insert(search.end(), folders.begin(), folders.end());
    if (const fs::path kernels = kernels_dir(); !kernels.empty()) search.push_back(kernels / "include");
    for (const fs::path& header : find_included_files(text, path.parent_path(), search)) {
        std::string content;
        if (seen.count(header) || !read_whole_file(header, content) || content.size() > kMaxBundledFileBytes) continue;
        seen.insert(header);
        if (files.size() < kMaxBundledFiles) files.push_back({{"path", header.string()}, {"text", content}});
    }
}

// "/a/b/../c" without "..", or empty when it climbs above the root.
fs::path safe_relative(const std::string& client_path) {
    const fs::path path(client_path);
    if (!path.is_absolute()) return {};
    const fs::path normal = path.lexically_normal().relative_path();
    for (const auto& part : normal)
        if (part == "..") return {};
    return normal;
}

void restore_in(nlohmann::json& value, const std::string& prefix) {
    if (value.is_string()) {
        std::string text = value.get<std::string>();
        bool changed = false;
        for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at)) {
            text.erase(at, prefix.size());
            changed = true;
        }
        if (changed) value = text;
    } else if (value.is_array() || value.is_object()) {
        for (auto& item : value) restore_in(item, prefix);
    }
}

}  // namespace

nlohmann::json bundle_files(const fs::path& kernel_path, const std::optional<std::string>& source, const std::vector<std::string>& include_dirs) {
    nlohmann::json files = nlohmann::json::array();
    std::set<fs::path> seen;
    const fs::path kernel = fs::absolute(kernel_path).lexically_normal();
    std::string text;
    if (source) text = *source;
    else if (!read_whole_file(kernel, text)) return files;
    // The file's include= folders are found again beside it on the host, the user's under the same paths.
    std::vector<fs::path> folders;
    try {
        if (const std::optional<KernelSpec> build = file_build_settings(text, kernel)) folders = file_include_dirs(*build, kernel);
    } catch (const std::exception&) {
        // A folder that is missing or an option refused: the host says why, as a local run would.
    }
    folders.insert(folders.end(), include_dirs.begin(), include_dirs.end());
    add_with_includes(files, seen, kernel, text, folders);
    try {
        const KernelSpec spec = resolve_kernel_spec(text, kernel);
        if (!spec.task.reference.file.empty()) {
            const fs::path reference = (kernel.parent_path() / spec.task.reference.file).lexically_normal();
            std::string reference_text;
            if (read_whole_file(reference, reference_text) && reference_text.size() <= kMaxBundledFileBytes)
                add_with_includes(files, seen, reference, reference_text);
        }
    } catch (const std::exception&) {
        // A spec that does not parse fails the same way on the host, which says why.
    }
    return files;
}

std::optional<ImageUpload> read_image_upload(const fs::path& path) {
    std::string bytes;
    if (!read_whole_file(path, bytes)) return std::nullopt;
    ImageUpload upload;
    upload.hash = hash_hex(bytes);
    upload.extension = path.extension().string();
    if (upload.extension.size() > 8) upload.extension.clear();
    upload.bytes.assign(bytes.begin(), bytes.end());
    return upload;
}

RemoteScratch::RemoteScratch() {
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    const fs::path base = runtime && *runtime && fs::is_directory(runtime) ? fs::path(runtime) : fs::temp_directory_path();
    std::string pattern = (base / "kplay-remote-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw InputError("cannot make a private folder under " + base.string());
    root_ = pattern;
    fs::create_directories(root_ / "files");
    fs::create_directories(root_ / "images");
    files_prefix_ = (root_ / "files").string();
}

RemoteScratch::~RemoteScratch() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
}

fs::path RemoteScratch::write_files(const nlohmann::json& request, const fs::path& client_path) {
    const nlohmann::json files = request.value(remote_field::files, nlohmann::json::array());
    if (!files.is_array() || files.size() > kMaxBundledFiles)
        throw InputError("a run's file list must be an array of at most " + std::to_string(kMaxBundledFiles) + " files");
    for (const auto& file : files) {
        if (!file.is_object() || !file.contains("path") || !file["path"].is_string() || !file.contains("text") || !file["text"].is_string())
            throw InputError("a bundled file needs a path and a text");
        const fs::path relative = safe_relative(file["path"].get<std::string>());
        if (relative.empty()) throw InputError("a bundled file's path must be absolute and stay inside its root: " + file["path"].get<std::string>());
        const std::string& text = file["text"].get_ref<const std::string&>();
        if (text.size() > kMaxBundledFileBytes) throw InputError("a bundled file is larger than 16 MiB: " + file["path"].get<std::string>());
        const fs::path target = root_ / "files" / relative;
        fs::create_directories(target.parent_path());
        if (!write_file_atomically(target, text)) throw InputError("cannot write " + target.string() + " on the host");
    }
    return host_path(request, client_path);
}

fs::path RemoteScratch::host_path(const nlohmann::json& request, const fs::path& client_path) const {
    // fs::absolute here would resolve against the host's folder (the ssh user's home).
    const std::string client_folder = request.value(remote_field::client_folder, "");
    if (!client_path.is_absolute() && client_folder.empty())
        throw InputError("the relative path " + client_path.string() + " came without the client's folder");
    const fs::path client_absolute = client_path.is_absolute() ? client_path : fs::path(client_folder) / client_path;
    const fs::path relative = safe_relative(client_absolute.string());
    if (relative.empty()) throw InputError("the path must stay inside its root: " + client_path.string());
    return root_ / "files" / relative;
}

fs::path RemoteScratch::image_path(const std::string& hash, const std::string& extension) const {
    std::string name;
    for (char c : hash)
        if (std::isalnum(static_cast<unsigned char>(c))) name += c;
    std::string suffix;
    for (char c : extension)
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '.') suffix += c;
    return root_ / "images" / ((name.empty() ? std::string("image") : name.substr(0, 64)) + suffix.substr(0, 8));
}

void RemoteScratch::restore_client_paths(nlohmann::json& answer) const { restore_in(answer, files_prefix_); }

}  // namespace kplay
