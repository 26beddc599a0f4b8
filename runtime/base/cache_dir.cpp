// Cache folder location and atomic file replacement.
#include "base/cache_dir.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace kplay {

namespace fs = std::filesystem;

fs::path default_cache_dir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "kplay";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "kplay";
    return fs::temp_directory_path() / "kplay-cache";
}

bool write_file_atomically(const fs::path& target, const std::string& bytes) {
    static std::atomic<unsigned> counter{0};
    std::error_code error;
    fs::create_directories(target.parent_path(), error);
    const fs::path temp = target.parent_path() / (target.filename().string() + ".tmp." + std::to_string(getpid()) + "." +
                                                  std::to_string(counter++));
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return false;
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            out.close();
            fs::remove(temp, error);
            return false;
        }
    }
    fs::rename(temp, target, error);
    if (error) {
        fs::remove(temp, error);
        return false;
    }
    return true;
}

bool read_whole_file(const fs::path& path, std::string& bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    bytes = buffer.str();
    return static_cast<bool>(in) || in.eof();
}

}  // namespace kplay
