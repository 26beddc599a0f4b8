// Parser for NVRTC's log format:
//
//   path(LINE): error: message            header (also "warning #177-D:", "catastrophic error:")
//     <source line>                       echoed with a two-space prefix, tabs kept
//     <spaces>^                           the caret, in the same columns as the echoed line
//
// The column is the caret's position in the caret line less the prefix, counted in bytes like gcc.
#include "compile/nvrtc_log.hpp"

#include <regex>

namespace kplay {

namespace {

constexpr std::string_view kEchoPrefix = "  ";

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        if (end == text.size()) break;
        start = end + 1;
    }
    return lines;
}

bool is_caret_line(const std::string& line) {
    const auto caret = line.find('^');
    return caret != std::string::npos && line.find_first_not_of(" \t") == caret &&
           line.find_first_not_of(" \t", caret + 1) == std::string::npos;
}

Severity severity_from(const std::string& word) {
    if (word.find("warning") != std::string::npos) return Severity::warning;
    if (word.find("remark") != std::string::npos) return Severity::remark;
    return Severity::error;
}

std::string strip_echo_prefix(const std::string& line) {
    return line.compare(0, kEchoPrefix.size(), kEchoPrefix) == 0 ? line.substr(kEchoPrefix.size()) : line;
}

}  // namespace

std::vector<Diagnostic> parse_nvrtc_log(std::string_view log) {
    static const std::regex located(R"(^(.*)\((\d+)\): (catastrophic error|error|warning|remark)(?: #([0-9A-Za-z-]+))?: (.*)$)");
    static const std::regex unlocated(R"(^(catastrophic error|error|warning)(?: #([0-9A-Za-z-]+))?: (.*)$)");
    std::vector<Diagnostic> diagnostics;
    const std::vector<std::string> lines = split_lines(log);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch match;
        Diagnostic diagnostic;
        if (std::regex_match(lines[i], match, located)) {
            diagnostic.file = match[1];
            diagnostic.line = std::stoi(match[2]);
            diagnostic.severity = severity_from(match[3]);
            diagnostic.code = match[4];
            diagnostic.message = match[5];
        } else if (std::regex_match(lines[i], match, unlocated)) {
            diagnostic.severity = severity_from(match[1]);
            diagnostic.code = match[2];
            diagnostic.message = match[3];
        } else {
            continue;  // summaries ("1 error detected ..."), "Remark: ..." hints, blank lines
        }
        // The block runs until the next blank line: echoed source, caret, then any context lines.
        size_t j = i + 1;
        for (; j < lines.size() && !lines[j].empty(); ++j) {
            const std::string& line = lines[j];
            if (is_caret_line(line)) {
                const size_t caret = line.find('^');
                diagnostic.column = static_cast<int>(caret >= kEchoPrefix.size() ? caret - kEchoPrefix.size() : caret) + 1;
            } else if (diagnostic.source_line.empty() && diagnostic.column == 0 && diagnostic.line > 0 &&
                       line.compare(0, kEchoPrefix.size(), kEchoPrefix) == 0 && j == i + 1) {
                diagnostic.source_line = strip_echo_prefix(line);
            } else {
                const auto first = line.find_first_not_of(" \t");
                if (first == std::string::npos) continue;
                if (!diagnostic.context.empty()) diagnostic.context += '\n';
                diagnostic.context += line.substr(first);
            }
        }
        diagnostics.push_back(std::move(diagnostic));
        i = j - 1;
    }
    return diagnostics;
}

}  // namespace kplay
