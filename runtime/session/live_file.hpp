// The open kernel file, live: its folder watched for saves, its text read and hashed, its kplay lines
// resolved to a spec (or the reason they do not resolve).
//
// An editor may leave the file briefly missing or empty mid-save, and its content may then come
// without a save of its own (the descriptor stays open): such a read is retried for about a second,
// never compiled, and only then reported. A save that brings the bytes already read (a touch, or a
// save whose content a retry found first) is no new text.
//
// The headers the file reaches are watched too: its `#include "..."` and `<...>` resolved, recursively,
// against its own folder, its include= folders and the user's (-I, KPLAY_INCLUDE_PATH), as the compile
// cache's key finds them; the toolkit's and kplay's own headers are not (they are not found there, or lie
// under the CUDA include folder). A save of one is a change of the kernel: the compile's key includes it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kernel_file/kernel_spec.hpp"
#include "session/clock.hpp"
#include "session/file_watcher.hpp"

namespace kplay {

class LiveFile {
public:
    // What poll() read: whether a save of the file or a retry that came due was read at all, and,
    // when that brought new text, when its change was seen (the start of its edit -> result time).
    // At most one read a poll brings new text: a readable file ends any retrying.
    struct Poll {
        bool read = false;
        std::optional<Clock::time_point> new_text_at;
        std::filesystem::path header;  // when a header's save brought the change (the file's text is the same)
    };

    // Follows `file` from now on; the last file's text, spec and errors are forgotten (load() reads
    // the new one). Watching fails, said in error(), when the file's folder does not exist.
    void open(const std::filesystem::path& file);
    // Reads the file; true when its text is new, or readable at all when `force` (Ctrl+R, opening):
    // source() and spec() then hold it. An empty or unreadable file is retried from poll().
    bool load(Clock::time_point changed_at, bool force);
    Poll poll();
    // The user's header folders (KPLAY_INCLUDE_PATH for the window), searched after the file's include=.
    void set_include_dirs(std::vector<std::string> dirs);
    const std::vector<std::filesystem::path>& headers() const { return headers_; }  // watched now
    // Their content when last read: a result of the same text with other headers is another result.
    const std::string& headers_hash() const { return headers_hash_; }

    const std::filesystem::path& path() const { return path_; }
    const std::string& source() const { return source_; }
    const std::string& source_hash() const { return source_hash_; }
    const std::optional<KernelSpec>& spec() const { return spec_; }
    const std::string& spec_error() const { return spec_error_; }
    const std::string& error() const { return error_; }  // unreadable, empty, or not watched
    int reloads() const { return reloads_; }             // reads that brought new text
    int descriptor() const { return watcher_.descriptor(); }

    static constexpr int kMaxRetries = 50;  // with kRetryDelay: about a second
    static constexpr auto kRetryDelay = std::chrono::milliseconds(20);

private:
    void retry_later(Clock::time_point changed_at);
    void follow_headers();

    FileWatcher watcher_;
    std::filesystem::path path_;
    std::string source_, source_hash_;
    std::optional<KernelSpec> spec_;
    std::string spec_error_, error_;
    std::optional<Clock::time_point> retry_at_;
    Clock::time_point retry_change_{};  // the change the retries read for
    std::vector<std::string> include_dirs_;
    std::vector<std::filesystem::path> headers_;
    std::string headers_hash_;
    int retries_ = 0;
    int reloads_ = 0;
};

}  // namespace kplay
