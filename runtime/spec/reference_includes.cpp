// Quoted includes under KPLAY_REFERENCE, expanded in place with #line directives.
#include "spec/reference_includes.hpp"

#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "base/error.hpp"
#include "spec/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 8;
constexpr uintmax_t kMaxHeaderBytes = 1 << 20;

std::string quoted(const std::string& path) {
    std::string out = "\"";
    for (char c : path) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// `inside` marks the text as already under KPLAY_REFERENCE (a header included from the guarded block);
// `seen` holds the headers expanded so far, each expanded once (as #pragma once or a guard would).
std::string expand(std::string_view source, const fs::path& path, bool inside, int depth, std::set<fs::path>& seen) {
    static const std::regex include(R"(^\s*#\s*include\s*"([^"]+)\"\s*(//.*)?$)");
    const std::vector<bool> guarded = inside ? std::vector<bool>() : lines_defining(source, "KPLAY_REFERENCE");
    std::istringstream lines{std::string(source)};
    std::string line, out;
    int number = 0;
    bool changed = false;
    while (std::getline(lines, line)) {
        ++number;
        std::smatch match;
        const bool under = inside || (number < static_cast<int>(guarded.size()) && guarded[number]);
        if (!std::regex_match(line, match, include)) {
            out += line + "\n";
            continue;
        }
        const std::string where = path.filename().string() + ":" + std::to_string(number) + ": ";
        const fs::path header = path.parent_path() / match[1].str();
        std::error_code error;
        if (!fs::is_regular_file(header, error)) {
            // Outside the reference's block, a header that is not next to the file comes from the
            // include path (kplay.cuh): the compiler finds it there, and it is host-safe.
            if (!under) {
                out += line + "\n";
                continue;
            }
            throw InputError(where + "the reference includes \"" + match[1].str() + "\", which is not a file in " +
                             (path.parent_path().empty() ? std::string(".") : path.parent_path().string()) + ".");
        }
        if (depth >= kMaxDepth) throw InputError(where + "the reference's headers include each other more than 8 deep (a cycle?).");
        const fs::path canonical = fs::weakly_canonical(header, error);
        if (!seen.insert(canonical).second) {
            out += "// kplay: \"" + match[1].str() + "\" expanded above\n";
            continue;
        }
        if (fs::file_size(header, error) > kMaxHeaderBytes)
            throw InputError(where + "the reference's header \"" + match[1].str() + "\" is larger than 1 MiB.");
        const std::string text = read_source_file(header);
        out += "#line 1 " + quoted(header.filename().string()) + "\n";
        out += expand(text, header, under, depth + 1, seen);
        if (!out.empty() && out.back() != '\n') out += "\n";
        out += "#line " + std::to_string(number + 1) + " " + quoted(path.filename().string()) + "\n";
        changed = true;
    }
    if (!changed && depth == 0) return std::string(source);
    return out;
}

}  // namespace

std::string expand_reference_includes(std::string_view source, const fs::path& path) {
    std::set<fs::path> seen;
    return expand(source, path, false, 0, seen);
}

std::string expanded_location(std::string_view expanded, int line, const std::string& file_name) {
    static const std::regex directive(R"(^\s*#\s*line\s+(\d+)\s+"([^"]*)\")");
    std::istringstream lines{std::string(expanded)};
    std::string text, file = file_name;
    int number = 0, mapped = 0;
    while (std::getline(lines, text) && number < line) {
        ++number;
        ++mapped;
        std::smatch match;
        if (std::regex_search(text, match, directive)) {
            file = match[2].str();
            mapped = std::stoi(match[1].str()) - 1;  // the next line is that number
        }
    }
    return file + ":" + std::to_string(mapped);
}

}  // namespace kplay
