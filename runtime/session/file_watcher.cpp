// inotify plumbing for FileWatcher.
#include "session/file_watcher.hpp"

#include <errno.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>

namespace kplay {

namespace fs = std::filesystem;

FileWatcher::FileWatcher() : inotify_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}

bool FileWatcher::watch(const fs::path& file) {
    if (!inotify_) return false;
    std::error_code error;
    const fs::path absolute = fs::absolute(file, error);
    const fs::path folder = absolute.parent_path();
    if (!fs::is_directory(folder, error)) return false;
    const int wd = inotify_add_watch(inotify_.get(), folder.c_str(),
                                     IN_CLOSE_WRITE | IN_MOVED_TO);
    if (wd < 0) return false;
    watches_[wd] = folder;
    auto& names = names_[folder];
    const std::string name = absolute.filename().string();
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    return true;
}

void FileWatcher::unwatch(const fs::path& file) {
    std::error_code error;
    const fs::path absolute = fs::absolute(file, error);
    const auto folder = names_.find(absolute.parent_path());
    if (folder == names_.end()) return;
    std::erase(folder->second, absolute.filename().string());
    if (!folder->second.empty()) return;
    for (auto watch = watches_.begin(); watch != watches_.end();)
        if (watch->second == folder->first) {
            inotify_rm_watch(inotify_.get(), watch->first);
            watch = watches_.erase(watch);
        } else {
            ++watch;
        }
    names_.erase(folder);
}

void FileWatcher::unwatch_all() {
    for (const auto& [wd, folder] : watches_) inotify_rm_watch(inotify_.get(), wd);
    watches_.clear();
    names_.clear();
}

std::vector<FileChange> FileWatcher::poll() {
    std::vector<FileChange> changes;
    if (!inotify_) return changes;
    alignas(inotify_event) char buffer[16 * 1024];
    for (;;) {
        const ssize_t n = read(inotify_.get(), buffer, sizeof buffer);
        if (n <= 0) break;  // EAGAIN: nothing more for now
        const auto now = std::chrono::steady_clock::now();
        for (ssize_t at = 0; at < n;) {
            const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
            at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            const auto folder = watches_.find(event->wd);
            if (folder == watches_.end() || event->len == 0) continue;
            const std::string name = event->name;
            const auto& names = names_[folder->second];
            if (std::find(names.begin(), names.end(), name) == names.end()) continue;
            // Only a finished write or a rename into place is a save. A bare create is not (vim creates,
            // then writes, then closes: reacting to the create would compile a half-written file).
            if (!(event->mask & (IN_CLOSE_WRITE | IN_MOVED_TO))) continue;
            const fs::path path = folder->second / name;
            auto existing = std::find_if(changes.begin(), changes.end(), [&](const FileChange& c) { return c.path == path; });
            if (existing == changes.end()) changes.push_back({path, now});
            else existing->when = now;
        }
    }
    return changes;
}

}  // namespace kplay
