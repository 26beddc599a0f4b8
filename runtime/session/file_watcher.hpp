// Watches kernel files for saves, whichever way an editor writes them.
//
// The parent folder is watched with inotify, not the file: vim renames the old file away and creates a
// new one, JetBrains and `sed -i` rename a temp file over it, VS Code truncates and rewrites in place,
// `cp` writes over it. A change is reported when a write is closed or a file is renamed into place
// under the watched name; poll() never blocks. Deduplicating by content is the caller's job.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/unique_fd.hpp"

namespace kplay {

struct FileChange {
    std::filesystem::path path;
    std::chrono::steady_clock::time_point when;  // when the event was read (close-after-write or rename)
};

class FileWatcher {
public:
    FileWatcher();
    // Starts watching `file` (its folder is watched; other names in it are ignored). Replaces any
    // earlier watch of the same file. Returns false (and watching stays off) when the folder is missing.
    bool watch(const std::filesystem::path& file);
    // Stops watching `file`; its folder stays watched while another watched file lives there.
    void unwatch(const std::filesystem::path& file);
    void unwatch_all();
    // Changes since the last call, one entry per file (several events in one poll are merged).
    std::vector<FileChange> poll();
    bool active() const { return !watches_.empty(); }
    // Readable when changes are pending: a UI can sleep on it.
    int descriptor() const { return inotify_.get(); }

private:
    UniqueFd inotify_;
    std::map<int, std::filesystem::path> watches_;            // watch descriptor -> folder
    std::map<std::filesystem::path, std::vector<std::string>> names_;  // folder -> watched file names
};

}  // namespace kplay
