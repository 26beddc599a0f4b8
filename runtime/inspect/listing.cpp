// Listing queries and the location linking the PTX and SASS parsers share.
#include "inspect/listing.hpp"

#include <climits>

namespace kplay {

std::map<int, int> Listing::instructions_by_line() const {
    std::map<int, int> counts;
    for (const auto& line : lines)
        if (line.instruction && line.source_line > 0) ++counts[line.source_line];
    return counts;
}

std::vector<int> Listing::lines_of(int source_line) const {
    std::vector<int> indices;
    if (source_line <= 0) return indices;  // 0 means "no line", not a line every unlinked row shares
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].source_line == source_line) indices.push_back(static_cast<int>(i));
    return indices;
}

std::string_view file_name_of(std::string_view path) {
    const auto slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_kernel_file(std::string_view listed_path, std::string_view kernel_file) {
    if (listed_path.empty() || kernel_file.empty()) return false;
    if (listed_path == kernel_file) return true;
    // A listing made in another checkout, or by a tool that prints only the name, still means this file;
    // the headers a kernel includes do not share its name.
    const auto listed_name = file_name_of(listed_path);
    return !listed_name.empty() && listed_name == file_name_of(kernel_file);
}

void link_to_kernel_file(ListingLine& line, const std::vector<ListedLocation>& chain, std::string_view kernel_file) {
    line.source_line = 0;
    line.origin.clear();
    if (chain.empty()) return;
    for (const auto& location : chain) {
        if (location.line > 0 && is_kernel_file(location.file, kernel_file)) {
            line.source_line = location.line;
            break;
        }
    }
    const auto& innermost = chain.front();
    if (innermost.line > 0 && !is_kernel_file(innermost.file, kernel_file)) {
        const auto name = file_name_of(innermost.file);
        line.origin = (name.empty() ? std::string("?") : std::string(name)) + ":" + std::to_string(innermost.line);
    }
}

int parse_listed_number(std::string_view text, size_t* used) {
    size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t digits_start = i;
    long long value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        value = value * 10 + (text[i] - '0');
        if (value > INT_MAX) return -1;
        ++i;
    }
    if (used) *used = i;
    if (i == digits_start) return -1;
    return static_cast<int>(value);
}

}  // namespace kplay
