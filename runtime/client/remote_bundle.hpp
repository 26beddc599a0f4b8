// What a remote run carries so the host reads no path of the client's: the kernel's text and the
// headers and reference files it uses (the "files" list), and an input image by content hash
// (sent once per connection, then named by its hash); and, on the host, the private folder they are
// written into, whose name is taken out of the answers again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kplay {

namespace remote_field {
inline constexpr const char* files = "files";  // [{"path": the client's absolute path, "text": ...}]
inline constexpr const char* image = "image";  // {"hash", "extension", "cached": bool}
// The client's working folder: a relative path the user typed is the client's, never the host's.
inline constexpr const char* client_folder = "client_folder";
}  // namespace remote_field

constexpr size_t kMaxBundledFiles = 256;
constexpr size_t kMaxBundledFileBytes = 16u << 20;

// The kernel file (its text: `source` when given, else read) and every file it includes from its own
// folder tree, its include= folders, the user's `include_dirs` or kplay's kernels_src/include, and a
// reference kernel file with its includes. Paths are absolute. A file that cannot be read is left out:
// the host then reports it missing, as a local run would.
nlohmann::json bundle_files(const std::filesystem::path& kernel_path, const std::optional<std::string>& source,
                            const std::vector<std::string>& include_dirs = {});

struct ImageUpload {
    std::string hash;       // of the file's bytes
    std::string extension;  // ".png", so the host's decoder sees the same file type
    std::vector<unsigned char> bytes;
};
// The image file's bytes and hash; nullopt when it cannot be read (the host reports it missing).
std::optional<ImageUpload> read_image_upload(const std::filesystem::path& path);

// The host's private folder for one connection (mode 0700, removed when the connection ends).
class RemoteScratch {
public:
    RemoteScratch();  // throws InputError when no folder can be made
    ~RemoteScratch();
    RemoteScratch(const RemoteScratch&) = delete;
    RemoteScratch& operator=(const RemoteScratch&) = delete;

    // Writes a request's files (its remote_field::files) under the folder (each path made relative to
    // it, never outside it) and returns the host path of `client_path`, which, when relative, is taken
    // from the request's remote_field::client_folder. Throws InputError for a bad list (too many, too
    // large, a relative path or one with "..").
    std::filesystem::path write_files(const nlohmann::json& request, const std::filesystem::path& client_path);
    // Where the request's `client_path` lies under the folder, whether or not a file was sent for it.
    std::filesystem::path host_path(const nlohmann::json& request, const std::filesystem::path& client_path) const;
    // Where an image of this hash is (or is to be) kept.
    std::filesystem::path image_path(const std::string& hash, const std::string& extension) const;
    // Replaces the folder's prefix in every string of an answer, so paths read as the client's own.
    void restore_client_paths(nlohmann::json& answer) const;
    const std::filesystem::path& root() const { return root_; }

private:
    std::filesystem::path root_;
    std::string files_prefix_;
};

}  // namespace kplay
