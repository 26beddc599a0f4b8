// Where kplay keeps files between runs: $XDG_CACHE_HOME/kplay, else ~/.cache/kplay.
#pragma once

#include <filesystem>
#include <string>

namespace kplay {

std::filesystem::path default_cache_dir();

// Writes a file atomically: a unique temp file in the same folder, then rename over the target, so a
// reader sees the old content or the new, never a partial file. No lock file is involved.
// Returns false (and leaves nothing behind) when the folder is not writable.
bool write_file_atomically(const std::filesystem::path& target, const std::string& bytes);

// Reads a whole file; returns false when it cannot be read.
bool read_whole_file(const std::filesystem::path& path, std::string& bytes);

}  // namespace kplay
