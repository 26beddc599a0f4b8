// Small strict parsers: any stray character is an error naming the option.
#include "option_parsing.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "kernel_file/include_dirs.hpp"

namespace kplay::cli {

std::vector<int64_t> parse_dims(const std::string& text, const char* option) {
    std::vector<int64_t> dims;
    size_t at = 0;
    while (at <= text.size()) {
        const size_t comma = text.find(',', at);
        const std::string part = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        size_t used = 0;
        long long value = 0;
        try {
            value = std::stoll(part, &used);
        } catch (...) {
            used = 0;
        }
        if (part.empty() || used != part.size())
            throw std::invalid_argument(std::string(option) + " expects numbers like 256 or 16,16 (got '" + text + "')");
        dims.push_back(value);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    if (dims.empty() || dims.size() > 3)
        throw std::invalid_argument(std::string(option) + " takes 1 to 3 numbers (x[,y[,z]]), got '" + text + "'");
    return dims;
}

int parse_device_ordinal(const std::string& text) {
    size_t used = 0;
    long long ordinal = -1;
    try {
        ordinal = std::stoll(text, &used);
    } catch (...) {
        used = 0;
    }
    if (text.empty() || used != text.size() || ordinal < 0 || ordinal > 1024)
        throw std::invalid_argument("--device expects a GPU's ordinal (0, 1, ...) or cpu for the emulated CPU device (got '" + text + "')");
    return static_cast<int>(ordinal);
}

std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* option) {
    const auto equals = text.find('=');
    const std::string name = text.substr(0, equals);
    if (name.empty() || name.find_first_of(" \t") != std::string::npos)
        throw std::invalid_argument(std::string(option) + " expects NAME=VALUE, got '" + text + "'");
    return {name, equals == std::string::npos ? "" : text.substr(equals + 1)};
}

std::vector<std::string> include_folders(const std::vector<std::string>& flags) {
    std::vector<std::string> folders;
    for (const std::string& flag : flags) {
        const std::filesystem::path dir = std::filesystem::absolute(flag).lexically_normal();
        std::error_code error;
        if (!std::filesystem::is_directory(dir, error)) throw std::invalid_argument("-I " + flag + ": no folder " + dir.string());
        folders.push_back(dir.string());
    }
    // A folder in the setting that is missing is skipped, as compilers skip a missing CPATH entry.
    if (const char* setting = std::getenv("KPLAY_INCLUDE_PATH"))
        for (const std::filesystem::path& dir : split_include_path(setting)) folders.push_back(dir.string());
    return folders;
}

}  // namespace kplay::cli
