// Quoted includes inlined, the host reference left out.
#include "export/standalone_source.hpp"

#include <cctype>
#include <set>
#include <sstream>

#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "base/text.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 8;

fs::path find_header(const std::string& name, const fs::path& beside, const std::vector<fs::path>& search) {
    std::error_code error;
    if (fs::is_regular_file(beside / name, error)) return beside / name;
    for (const fs::path& dir : search)
        if (fs::is_regular_file(dir / name, error)) return dir / name;
    return {};
}

std::string read_header(const fs::path& path) {
    try {
        return read_source_file(path);
    } catch (const InputError& error) {
        throw InputError("the header " + path.string() + " cannot be read for the export: " + error.what());
    }
}

bool is_pragma_once(std::string_view line) {
    const std::string text = trim(line);
    if (text.empty() || text[0] != '#') return false;
    std::string words;
    for (char c : text.substr(1))
        if (c != ' ' && c != '\t') words += c;
    return words == "pragmaonce";
}

// "endif", "else" or "elif" for a line that is that preprocessor directive; empty otherwise.
std::string closing_directive(std::string_view line) {
    std::string text = trim(line);
    if (text.empty() || text[0] != '#') return "";
    text = trim(text.substr(1));
    for (const char* word : {"endif", "else", "elif"}) {
        const size_t n = std::char_traits<char>::length(word);
        if (text.compare(0, n, word) == 0 && (text.size() == n || (!std::isalnum(static_cast<unsigned char>(text[n])) && text[n] != '_')))
            return word;
    }
    return "";
}

void inline_text(std::string_view source, const fs::path& path, const std::vector<fs::path>& search, int depth,
                 std::set<fs::path>& seen, std::ostringstream& out) {
    if (depth > kMaxDepth) throw InputError(path.string() + ": headers nest more than " + std::to_string(kMaxDepth) + " deep");
    const std::vector<bool> reference = lines_defining(source, "KPLAY_REFERENCE");
    const auto lines = split_lines(source);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i + 1 < reference.size() && reference[i + 1]) continue;  // the host reference's part
        std::string line(lines[i]);
        // The directive that ends the reference's branch: its #if went with the branch, so an #endif goes
        // too, and an #else or #elif opens the branch kept (as an #if of its own, closed by that #endif).
        if (i < reference.size() && reference[i]) {
            const std::string directive = closing_directive(line);
            if (directive == "endif") continue;
            if (directive == "else") line = "#if 1  // (kplay's export: the #else of a KPLAY_REFERENCE branch)";
            if (directive == "elif") line = "#if " + trim(line.substr(line.find("elif") + 4));
        }
        if (depth > 0 && is_pragma_once(line)) continue;
        char opening = 0;
        std::string name;
        fs::path header;
        if (match_include_line(line, opening, name) && opening == '"') header = find_header(name, path.parent_path(), search);
        if (header.empty()) {
            out << line << '\n';
            continue;
        }
        std::error_code error;
        const fs::path canonical = fs::weakly_canonical(header, error);
        if (!seen.insert(error ? header : canonical).second) continue;
        out << "// ---- " << name << " (inlined from " << header.filename().string() << ") ----\n";
        inline_text(read_header(header), header, search, depth + 1, seen, out);
        out << "// ---- end of " << name << " ----\n";
    }
}

}  // namespace

std::string standalone_kernel_source(std::string_view source, const fs::path& path, const std::vector<std::string>& include_dirs) {
    std::vector<fs::path> search;
    for (const auto& dir : include_dirs) search.push_back(fs::path(dir).is_absolute() ? fs::path(dir) : path.parent_path() / dir);
    if (const fs::path kernels = kernels_dir(); !kernels.empty()) search.push_back(kernels / "include");
    std::set<fs::path> seen;
    std::ostringstream out;
    inline_text(source, path, search, 0, seen, out);
    return out.str();
}

}  // namespace kplay
