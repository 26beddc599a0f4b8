// Parser for NVRTC's log format:
//
//   path(LINE): error: message            header (also "warning #177-D:", "catastrophic error:")
//     <source line>                       echoed with a two-space prefix, tabs kept
//     <spaces>^                           the caret, in the same columns as the echoed line
//
// The column is the caret's position in the caret line less the prefix, counted in bytes like gcc.
//
// When the front end passed and ptxas (which NVRTC runs for an sm_XX target) failed, its lines are
//
//   ptxas application ptx input, line 577; error   : Instruction 'wgmma.fence' not supported on .target 'sm_90'
//   ptxas fatal   : Ptx assembly aborted due to errors
//
// Each error or warning of the first kind is a diagnostic with its PTX line; the fatal summary is one
// only when nothing else explains the failure.
#include "compile/nvrtc_log.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>

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

// The header after its location: "SEVERITY[ #CODE]: MESSAGE", SEVERITY one of `severities`.
// Hand-written rather than std::regex, whose backtracking recurses once per character and overflows
// the stack on a long line (tests/fuzz/fuzz_nvrtc_log).
bool parse_severity_and_message(std::string_view rest, bool remark_allowed, Diagnostic& diagnostic) {
    static constexpr std::string_view kSeverities[] = {"catastrophic error", "error", "warning", "remark"};
    for (const std::string_view word : kSeverities) {
        if (word == "remark" && !remark_allowed) continue;
        if (rest.substr(0, word.size()) != word) continue;
        std::string_view after = rest.substr(word.size());
        std::string_view code;
        if (after.substr(0, 2) == " #") {
            size_t end = 2;
            while (end < after.size() && (std::isalnum(static_cast<unsigned char>(after[end])) || after[end] == '-')) ++end;
            if (end == 2) return false;
            code = after.substr(2, end - 2);
            after = after.substr(end);
        }
        if (after.substr(0, 2) != ": ") return false;
        diagnostic.severity = severity_from(std::string(word));
        diagnostic.code = std::string(code);
        diagnostic.message = std::string(after.substr(2));
        return true;
    }
    return false;
}

// "path(LINE): SEVERITY[ #CODE]: MESSAGE" (the rightmost "(LINE): " that parses, as a greedy match of
// the path would take) or "SEVERITY[ #CODE]: MESSAGE" without a location.
std::optional<Diagnostic> parse_header(const std::string& line) {
    if (line.find_first_of("\r\n") != std::string::npos) return std::nullopt;
    Diagnostic diagnostic;
    for (size_t open = line.rfind('('); open != std::string::npos; open = open == 0 ? std::string::npos : line.rfind('(', open - 1)) {
        size_t close = open + 1;
        while (close < line.size() && std::isdigit(static_cast<unsigned char>(line[close]))) ++close;
        if (close == open + 1 || line.compare(close, 3, "): ") != 0) continue;
        if (!parse_severity_and_message(std::string_view(line).substr(close + 3), true, diagnostic)) continue;
        diagnostic.file = line.substr(0, open);
        int number = 0;
        const auto [end, error] = std::from_chars(line.data() + open + 1, line.data() + close, number);
        diagnostic.line = error == std::errc() ? number : 0;  // a line past INT_MAX is no line
        return diagnostic;
    }
    if (parse_severity_and_message(line, false, diagnostic)) return diagnostic;
    return std::nullopt;
}

// "ptxas application ptx input, line N; SEVERITY : MESSAGE" or "ptxas SEVERITY : MESSAGE" (fatal too).
std::optional<Diagnostic> parse_ptxas_line(const std::string& line) {
    constexpr std::string_view kPrefix = "ptxas ";
    if (line.compare(0, kPrefix.size(), kPrefix) != 0) return std::nullopt;
    std::string_view rest = std::string_view(line).substr(kPrefix.size());
    Diagnostic diagnostic;
    constexpr std::string_view kInput = "application ptx input, line ";
    if (rest.substr(0, kInput.size()) == kInput) {
        rest = rest.substr(kInput.size());
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), diagnostic.ptx_line);
        if (error != std::errc() || end == rest.data()) return std::nullopt;
        rest = rest.substr(static_cast<size_t>(end - rest.data()));
        if (rest.substr(0, 2) != "; ") return std::nullopt;
        rest = rest.substr(2);
    }
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    std::string_view word = rest.substr(0, colon);
    while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
    if (word == "error" || word == "fatal") diagnostic.severity = Severity::error;
    else if (word == "warning") diagnostic.severity = Severity::warning;
    else if (word == "info") diagnostic.severity = Severity::remark;
    else return std::nullopt;
    std::string_view message = rest.substr(colon + 1);
    while (!message.empty() && message.front() == ' ') message.remove_prefix(1);
    diagnostic.message = "ptxas: " + std::string(message);
    diagnostic.code = std::string(word == "fatal" ? "ptxas-fatal" : "ptxas");
    return diagnostic;
}

}  // namespace

std::vector<Diagnostic> parse_nvrtc_log(std::string_view log) {
    std::vector<Diagnostic> diagnostics;
    const std::vector<std::string> lines = split_lines(log);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (std::optional<Diagnostic> ptxas = parse_ptxas_line(lines[i])) {
            // ptxas -v's resource report ("ptxas info : Used 40 registers") is read by inspect/ptxas_report.
            if (ptxas->severity != Severity::remark) diagnostics.push_back(std::move(*ptxas));
            continue;
        }
        std::optional<Diagnostic> header = parse_header(lines[i]);
        if (!header) continue;  // summaries ("1 error detected ..."), "Remark: ..." hints, blank lines
        Diagnostic diagnostic = std::move(*header);
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
    // ptxas's "Ptx assembly aborted due to errors" says only that the errors above stopped it.
    const bool ptxas_errors = std::any_of(diagnostics.begin(), diagnostics.end(),
                                          [](const Diagnostic& d) { return d.code == "ptxas" && d.severity == Severity::error; });
    if (ptxas_errors)
        diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.code == "ptxas-fatal"; }),
                          diagnostics.end());
    return diagnostics;
}

}  // namespace kplay
