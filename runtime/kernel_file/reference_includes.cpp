// Quoted includes under KPLAY_REFERENCE, expanded in place with #line directives.
#include "kernel_file/reference_includes.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <set>
#include <sstream>
#include <vector>

#include "base/error.hpp"
#include "kernel_file/source_scan.hpp"

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

// A `#include "NAME"` line, as read for the compiler's includes, with nothing after it but spaces or a
// // comment (what std::regex R"(^\s*#\s*include\s*"([^"]+)\"\s*(//.*)?$)" took, before it overflowed
// the stack on a long line: tests/fuzz/fuzz_spec).
bool match_quoted_include(const std::string& line, std::string& name) {
    char opening = 0;
    size_t at = 0;
    if (!match_include_line(line, opening, name, &at) || opening != '"' || line[at - 1] != '"') return false;
    while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
    return at == line.size() || (line.compare(at, 2, "//") == 0 && line.find('\r', at) == std::string::npos);
}

// `inside` marks the text as already under KPLAY_REFERENCE (a header included from the guarded block);
// `seen` holds the headers expanded so far, each expanded once (as #pragma once or a guard would).
std::string expand(std::string_view source, const fs::path& path, bool inside, int depth, std::set<fs::path>& seen) {
    const std::vector<bool> guarded = inside ? std::vector<bool>() : lines_defining(source, "KPLAY_REFERENCE");
    std::istringstream lines{std::string(source)};
    std::string line, out;
    int number = 0;
    bool changed = false;
    while (std::getline(lines, line)) {
        ++number;
        std::string included;
        const bool under = inside || (number < static_cast<int>(guarded.size()) && guarded[number]);
        if (!match_quoted_include(line, included)) {
            out += line + "\n";
            continue;
        }
        const std::string where = path.filename().string() + ":" + std::to_string(number) + ": ";
        const fs::path header = path.parent_path() / included;
        std::error_code error;
        if (!fs::is_regular_file(header, error)) {
            // Outside the reference's block, a header that is not next to the file comes from the
            // include path (kplay.cuh): the compiler finds it there, and it is host-safe.
            if (!under) {
                out += line + "\n";
                continue;
            }
            throw InputError(where + "the reference includes \"" + included + "\", which is not a file in " +
                             (path.parent_path().empty() ? std::string(".") : path.parent_path().string()) + ".");
        }
        if (depth >= kMaxDepth) throw InputError(where + "the reference's headers include each other more than 8 deep (a cycle?).");
        const fs::path canonical = fs::weakly_canonical(header, error);
        if (!seen.insert(canonical).second) {
            out += "// kplay: \"" + included + "\" expanded above\n";
            continue;
        }
        if (fs::file_size(header, error) > kMaxHeaderBytes)
            throw InputError(where + "the reference's header \"" + included + "\" is larger than 1 MiB.");
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

namespace {
// `#line N "FILE"` at the start of a line, read as std::regex R"(^\s*#\s*line\s+(\d+)\s+"([^"]*)\")" would,
// by hand: the regex overflowed the stack on a long line, std::stoi threw std::out_of_range past INT_MAX
// and the count after `#line 2147483647` overflowed (tests/fuzz/fuzz_spec). A number past INT_MAX is no
// line (a compiler refuses it too), so the directive is ignored.
bool match_line_directive(const std::string& text, int64_t& number, std::string& file) {
    size_t at = 0;
    auto spaces = [&] {
        const size_t start = at;
        while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
        return at > start;
    };
    spaces();
    if (at >= text.size() || text[at] != '#') return false;
    ++at;
    spaces();
    if (text.compare(at, 4, "line") != 0) return false;
    at += 4;
    if (!spaces()) return false;
    const size_t digits = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (at == digits) return false;
    const size_t digits_end = at;
    if (!spaces() || at >= text.size() || text[at] != '"') return false;
    const size_t close = text.find('"', at + 1);
    if (close == std::string::npos) return false;
    int value = 0;
    const auto [end, error] = std::from_chars(text.data() + digits, text.data() + digits_end, value);
    if (error != std::errc()) return false;
    number = value;
    file = text.substr(at + 1, close - at - 1);
    return true;
}
}  // namespace

std::string expanded_location(std::string_view expanded, int line, const std::string& file_name) {
    std::istringstream lines{std::string(expanded)};
    std::string text, file = file_name;
    int number = 0;
    int64_t mapped = 0;
    while (std::getline(lines, text) && number < line) {
        ++number;
        ++mapped;
        int64_t directive_line = 0;
        std::string directive_file;
        if (match_line_directive(text, directive_line, directive_file)) {
            file = directive_file;
            mapped = directive_line - 1;  // the next line is that number
        }
    }
    return file + ":" + std::to_string(mapped);
}

}  // namespace kplay
