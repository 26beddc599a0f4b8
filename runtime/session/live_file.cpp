// Reading the open file: retries of an empty or missing file, and unchanged content dropped by its hash.
#include "session/live_file.hpp"

#include "base/content_hash.hpp"
#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "kernel_file/include_dirs.hpp"
#include "kernel_file/source_scan.hpp"

#include <algorithm>

namespace kplay {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxHeaders = 512;  // a header library's folder of thousands is not a kernel's own

std::string read_source_file_or_empty(const fs::path& path) {
    try {
        return read_source_file(path);
    } catch (const InputError&) {
        return {};  // mid-save: its own save event comes next
    }
}

bool under(const fs::path& file, const fs::path& folder) {
    if (folder.empty()) return false;
    const auto [end, _] = std::mismatch(folder.begin(), folder.end(), file.begin(), file.end());
    return end == folder.end();
}

}  // namespace

void LiveFile::set_include_dirs(std::vector<std::string> dirs) { include_dirs_ = std::move(dirs); }

// The headers this text reaches now, watched in place of the last text's.
void LiveFile::follow_headers() {
    std::vector<fs::path> dirs;
    try {
        const std::optional<KernelSpec> build = spec_ ? spec_ : file_build_settings(source_, path_);
        for (const std::string& dir : kernel_include_dirs(build ? *build : KernelSpec{}, path_, include_dirs_)) dirs.emplace_back(dir);
    } catch (const InputError&) {
        for (const std::string& dir : include_dirs_) dirs.emplace_back(dir);  // a missing include= folder: the compile says so
    }
    std::error_code error;
    const fs::path toolkit = fs::weakly_canonical(cuda_include_dir(), error);
    const fs::path self = fs::weakly_canonical(fs::absolute(path_, error), error);
    std::vector<fs::path> headers;
    for (const fs::path& header : find_included_files(source_, fs::absolute(path_, error).parent_path(), dirs))
        if (header != self && !under(header, toolkit) && headers.size() < kMaxHeaders) headers.push_back(header);
    for (const fs::path& old : headers_)
        if (std::find(headers.begin(), headers.end(), old) == headers.end()) watcher_.unwatch(old);
    for (const fs::path& header : headers)
        if (std::find(headers_.begin(), headers_.end(), header) == headers_.end()) watcher_.watch(header);
    headers_ = std::move(headers);
    std::string contents;
    for (const fs::path& header : headers_) contents += header.string() + "\n" + read_source_file_or_empty(header) + "\n";
    headers_hash_ = headers_.empty() ? std::string() : hash_hex(contents);
}

void LiveFile::open(const std::filesystem::path& file) {
    watcher_.unwatch_all();
    headers_.clear();
    headers_hash_.clear();
    path_ = file;
    source_.clear();
    source_hash_.clear();
    spec_.reset();
    spec_error_.clear();
    error_.clear();
    if (!watcher_.watch(file)) error_ = "Cannot watch " + file.string() + ": its folder does not exist.";
}

bool LiveFile::load(Clock::time_point changed_at, bool force) {
    std::string text;
    try {
        text = read_source_file(path_);
        error_.clear();
    } catch (const InputError& error) {
        text.clear();
        error_ = error.what();
    }
    // Never compile emptiness: an editor mid-save.
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        retry_later(changed_at);
        return false;
    }
    retries_ = 0;
    retry_at_.reset();
    const std::string hash = hash_hex(text);
    if (!force && hash == source_hash_) return false;  // touched but unchanged (or a save we already have)
    ++reloads_;
    source_ = std::move(text);
    source_hash_ = hash;
    try {
        spec_ = resolve_kernel_spec(source_, path_);
        spec_error_.clear();
    } catch (const InputError& error) {
        spec_.reset();
        spec_error_ = error.what();
    }
    follow_headers();
    return true;
}

void LiveFile::retry_later(Clock::time_point changed_at) {
    if (retries_ < kMaxRetries) {
        ++retries_;
        retry_at_ = Clock::now() + kRetryDelay;
        retry_change_ = changed_at;
        return;
    }
    retry_at_.reset();
    if (error_.empty()) error_ = path_.string() + " is empty.";
}

LiveFile::Poll LiveFile::poll() {
    Poll result;
    std::error_code error;
    const fs::path self = fs::absolute(path_, error);
    for (const FileChange& change : watcher_.poll()) {
        if (change.path.filename() == path_.filename() && change.path.parent_path() == self.parent_path()) {
            result.read = true;
            if (load(change.when, false)) result.new_text_at = change.when;
        } else if (std::find(headers_.begin(), headers_.end(), change.path) != headers_.end() && !source_.empty() && !result.new_text_at) {
            // The kernel's text is unchanged, its build is not: a new compile (keyed by the header's content).
            result.read = true;
            result.new_text_at = change.when;
            result.header = change.path;
            follow_headers();  // the header may include others now
        }
    }
    if (retry_at_ && Clock::now() >= *retry_at_) {
        result.read = true;
        const Clock::time_point changed_at = retry_change_;
        if (load(changed_at, false)) result.new_text_at = changed_at;
    }
    return result;
}

}  // namespace kplay
