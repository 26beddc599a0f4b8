// Lightweight lexical scanning of CUDA C++ source: enough to find kernels and includes, not a parser.
#include "kernel_file/source_scan.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "base/error.hpp"
#include "base/text.hpp"

namespace kplay {

namespace fs = std::filesystem;

bool KernelParam::is_pointer() const { return type.find('*') != std::string::npos; }

std::string read_source_file(const fs::path& path) {
    std::error_code error;
    if (!fs::exists(path, error)) throw InputError("Kernel file not found: " + path.string());
    if (fs::is_directory(path, error)) throw InputError("Expected a kernel file but got a directory: " + path.string());
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("Cannot read kernel file: " + path.string());
    std::ostringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    if (text.find("\r\n") != std::string::npos) {
        std::string unix_text;
        unix_text.reserve(text.size());
        for (size_t i = 0; i < text.size(); ++i)
            if (!(text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) unix_text += text[i];
        text = std::move(unix_text);
    }
    if (text.find('\0') != std::string::npos)
        throw InputError("Kernel file " + path.string() + " contains NUL bytes; is it a binary file?");
    return text;
}

std::string kernel_folder_name(const std::filesystem::path& path) {
    std::error_code error;
    const std::filesystem::path real = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error);
    return (error ? path : real).parent_path().filename().string();
}

bool match_kplay_line(std::string_view line, std::string& name, std::string& rest) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t at = 0;
    auto skip_spaces = [&] {
        while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
    };
    skip_spaces();
    if (line.compare(at, 2, "//") != 0) return false;
    at += 2;
    skip_spaces();
    if (line.compare(at, 6, "kplay-") != 0) return false;
    at += 6;
    const size_t name_start = at;
    while (at < line.size() && std::isalpha(static_cast<unsigned char>(line[at]))) ++at;
    if (at == name_start) return false;
    const size_t name_end = at;
    skip_spaces();
    if (at >= line.size() || line[at] != ':') return false;
    if (line.find('\r', at + 1) != std::string_view::npos) return false;
    name = std::string(line.substr(name_start, name_end - name_start));
    rest = std::string(line.substr(at + 1));
    return true;
}

std::string blank_comments_and_strings(std::string_view source, bool strings) {
    std::string out(source);
    enum class State { code, line_comment, block_comment, string, character } state = State::code;
    for (size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        const char next = i + 1 < out.size() ? out[i + 1] : '\0';
        auto blank = [&](size_t at) { if (out[at] != '\n') out[at] = ' '; };
        switch (state) {
            case State::code:
                if (c == '/' && next == '/') { state = State::line_comment; blank(i); }
                else if (c == '/' && next == '*') { state = State::block_comment; blank(i); blank(i + 1); ++i; }
                else if (c == '"') state = State::string;
                else if (c == '\'') state = State::character;
                break;
            case State::line_comment:
                if (c == '\n') state = State::code; else blank(i);
                break;
            case State::block_comment:
                if (c == '*' && next == '/') { blank(i); blank(i + 1); ++i; state = State::code; }
                else blank(i);
                break;
            case State::string:
            case State::character: {
                const char quote = state == State::string ? '"' : '\'';
                if (c == '\\' && next != '\0') { if (strings) { blank(i); blank(i + 1); } ++i; }
                else if (c == quote) state = State::code;
                else if (c == '\n') state = State::code;  // unterminated: let the compiler complain
                else if (strings) blank(i);
                break;
            }
        }
    }
    return out;
}

bool uses_grid_sync(std::string_view source) {
    const std::string code = blank_comments_and_strings(source);
    const std::string_view word = "this_grid";
    for (size_t at = code.find(word); at != std::string::npos; at = code.find(word, at + word.size())) {
        const auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
        if (at > 0 && is_name(code[at - 1])) continue;
        size_t after = at + word.size();
        if (after < code.size() && is_name(code[after])) continue;
        while (after < code.size() && std::isspace(static_cast<unsigned char>(code[after]))) ++after;
        if (after < code.size() && code[after] == '(') return true;
    }
    return false;
}

std::vector<std::string> split_type_list(const std::string& list) {
    std::vector<std::string> parts;
    int depth = 0;
    std::string current;
    for (char c : list) {
        if (c == '<' || c == '(' || c == '[') ++depth;
        if (c == '>' || c == ')' || c == ']') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(current);
            current.clear();
            continue;
        }
        current += c;
    }
    if (!current.empty()) parts.push_back(current);
    for (std::string& part : parts) {
        part.erase(0, part.find_first_not_of(' '));
        while (!part.empty() && part.back() == ' ') part.pop_back();
    }
    return parts;
}

namespace {

std::string collapse_spaces(const std::string& text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') { space = true; continue; }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

// "const float *__restrict__ a" -> type "const float *__restrict__", name "a".
KernelParam split_param(const std::string& text) {
    KernelParam param;
    std::string clean = collapse_spaces(text);
    const auto equals = clean.find('=');  // default argument
    if (equals != std::string::npos) clean = trim(clean.substr(0, equals));
    size_t end = clean.size();
    while (end > 0 && clean[end - 1] == ']') {  // array parameter decays to a pointer
        const auto open = clean.rfind('[', end);
        if (open == std::string::npos) break;
        clean = trim(clean.substr(0, open)) + " *";
        end = clean.size();
    }
    size_t start = end;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(clean[start - 1])) || clean[start - 1] == '_')) --start;
    const std::string last_word = clean.substr(start, end - start);
    const std::string before = trim(clean.substr(0, start));
    if (before.empty() || last_word == "__restrict__" || last_word == "int" || last_word == "float") {
        param.type = clean;  // unnamed parameter
    } else {
        param.type = before;
        param.name = last_word;
    }
    return param;
}

// A parameter list's text -> parameters (Foo<a,b> keeps its comma).
std::vector<KernelParam> split_params(const std::string& params) {
    std::vector<KernelParam> result;
    for (const std::string& part : split_type_list(params))
        if (!part.empty() && part != "void") result.push_back(split_param(part));
    return result;
}

// The offset of the parenthesis matching the one at `open`, or npos.
size_t matching_paren(const std::string& code, size_t open) {
    int depth = 0;
    for (size_t at = open; at < code.size(); ++at) {
        if (code[at] == '(') ++depth;
        else if (code[at] == ')' && --depth == 0) return at;
    }
    return std::string::npos;
}

int line_at(const std::string& code, size_t offset) {
    return 1 + static_cast<int>(std::count(code.begin(), code.begin() + static_cast<long>(offset), '\n'));
}

// What std::regex_search(text, std::regex(R"(\btemplate\s*<)")) finds, by hand: the regex recursed once
// per character of a long run of spaces and overflowed the stack (tests/fuzz/fuzz_spec).
bool mentions_template(const std::string& text) {
    for (size_t at = text.find("template"); at != std::string::npos; at = text.find("template", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
        size_t next = at + 8;
        while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
        if (next < text.size() && text[next] == '<') return true;
    }
    return false;
}

// What std::regex_search(text, std::regex(R"(extern\s+"C"\s*\{[^}]*$)")) finds (the text ends inside an
// `extern "C" {` block), by hand: the regex recursed once per character of the block (tests/fuzz/fuzz_spec).
bool ends_inside_extern_c_block(std::string_view text) {
    const size_t last_close = text.rfind('}');
    for (size_t at = text.find("extern"); at != std::string_view::npos; at = text.find("extern", at + 1)) {
        size_t next = at + 6;
        const size_t spaces = next;
        while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
        if (next == spaces || text.substr(next, 3) != "\"C\"") continue;
        next += 3;
        while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
        if (next < text.size() && text[next] == '{' && (last_close == std::string_view::npos || last_close < next)) return true;
    }
    return false;
}

}  // namespace

namespace {

// The named namespaces open at each of `offsets` (ascending), joined with "::": a brace opened by
// `namespace a {`, `namespace a::b {` or `inline namespace c {` adds its name; `namespace {` adds none.
std::vector<std::string> namespaces_at(const std::string& code, const std::vector<size_t>& offsets) {
    static const std::regex opener(R"((?:^|[\s;{}])(?:inline\s+)?namespace\s*([A-Za-z_][\w:]*)?\s*$)");
    std::vector<std::string> scopes;
    std::vector<std::string> stack;  // one entry per open brace: its namespace name, "" for any other brace
    size_t statement_start = 0, next = 0;
    for (size_t i = 0; i <= code.size() && next < offsets.size(); ++i) {
        while (next < offsets.size() && offsets[next] == i) {
            std::string scope;
            for (const std::string& name : stack)
                if (!name.empty() && name != "\x01") scope += (scope.empty() ? "" : "::") + name;
            scopes.push_back(scope);
            ++next;
        }
        if (i == code.size()) break;
        const char c = code[i];
        if (c == '{') {
            std::smatch match;
            const std::string head = code.substr(statement_start, i - statement_start);
            if (std::regex_search(head, match, opener)) stack.push_back(match[1].matched ? match[1].str() : "\x01");
            else stack.push_back("");
        } else if (c == '}' && !stack.empty()) {
            stack.pop_back();
        }
        if (c == ';' || c == '{' || c == '}') statement_start = i + 1;
    }
    while (scopes.size() < offsets.size()) scopes.emplace_back();
    return scopes;
}

size_t matching_paren_at(const std::string& code, size_t open) {
    int depth = 0;
    for (size_t i = open; i < code.size(); ++i) {
        if (code[i] == '(') ++depth;
        else if (code[i] == ')' && --depth == 0) return i;
    }
    return std::string::npos;
}

// Whether the parenthesis at `close` ends a function's parameter list: what follows is its body or the
// end of its declaration (a `<(N > 0)>` inside a return type, or `__launch_bounds__(256)`, is followed by more of the head).
bool ends_parameter_list(const std::string& code, size_t close) {
    size_t after = code.find_first_not_of(" \t\r\n", close + 1);
    if (after == std::string::npos) return true;
    static const char* const trailers[] = {"noexcept", "const", "__attribute__", "throw", "->", "override"};
    for (const char* trailer : trailers)
        if (code.compare(after, std::strlen(trailer), trailer) == 0) return true;
    return code[after] == '{' || code[after] == ';';
}

}  // namespace

std::vector<KernelDecl> find_kernels(std::string_view source) {
    const std::string code = blank_comments_and_strings(source);
    std::vector<KernelDecl> kernels;
    std::vector<size_t> offsets;  // each kernel's __global__, for its namespaces
    std::set<std::string> seen;
    size_t at = 0;
    while ((at = code.find("__global__", at)) != std::string::npos) {
        const size_t keyword = at;
        at += 10;
        if (keyword > 0 && (std::isalnum(static_cast<unsigned char>(code[keyword - 1])) || code[keyword - 1] == '_')) continue;
        // The name is the identifier just before the parameter list's parenthesis: the first parenthesis
        // whose match ends the head (a body or a `;` follows), so that attribute-like parentheses
        // (__launch_bounds__(256), __attribute__((...))) and those of a return type
        // (std::enable_if_t<(N > 0)>) are passed over.
        size_t open = at, name_start = 0, name_end = 0;
        const size_t head_end = code.find_first_of("{;", at);  // the search never leaves the head
        for (;;) {
            open = code.find('(', open);
            if (open == std::string::npos || (head_end != std::string::npos && open > head_end)) {
                open = std::string::npos;
                break;
            }
            name_end = open;
            while (name_end > at && std::isspace(static_cast<unsigned char>(code[name_end - 1]))) --name_end;
            name_start = name_end;
            while (name_start > at && (std::isalnum(static_cast<unsigned char>(code[name_start - 1])) || code[name_start - 1] == '_'))
                --name_start;
            const std::string word = code.substr(name_start, name_end - name_start);
            const size_t match = matching_paren_at(code, open);
            const bool attribute = word == "__launch_bounds__" || word == "__attribute__" || word == "__maxnreg__";
            if (match == std::string::npos || (!attribute && name_start != name_end && ends_parameter_list(code, match))) break;
            open = match;
        }
        if (open == std::string::npos || name_start == name_end) continue;
        // Matching close parenthesis.
        int depth = 0;
        size_t close = open;
        for (; close < code.size(); ++close) {
            if (code[close] == '(') ++depth;
            else if (code[close] == ')' && --depth == 0) break;
        }
        if (close >= code.size()) break;
        KernelDecl kernel;
        kernel.name = code.substr(name_start, name_end - name_start);
        kernel.line = 1 + static_cast<int>(std::count(code.begin(), code.begin() + static_cast<long>(keyword), '\n'));
        // Template and extern "C" are judged from the text just before __global__ (same statement).
        const size_t statement_start = [&] {
            const size_t stop = code.find_last_of(";}", keyword);
            return stop == std::string::npos ? 0 : stop + 1;
        }();
        const std::string prefix = code.substr(statement_start, keyword - statement_start);
        const std::string raw_prefix(source.substr(statement_start, keyword - statement_start));
        kernel.is_template = mentions_template(prefix);
        kernel.is_extern_c = raw_prefix.find("extern \"C\"") != std::string::npos ||
                             ends_inside_extern_c_block(source.substr(0, keyword));
        kernel.params = split_params(code.substr(open + 1, close - open - 1));
        if (seen.insert(kernel.name).second) {
            offsets.push_back(keyword);
            kernels.push_back(std::move(kernel));
        }
        at = close;
    }
    const std::vector<std::string> scopes = namespaces_at(code, offsets);
    for (size_t k = 0; k < kernels.size(); ++k) kernels[k].scope = scopes[k];
    return kernels;
}

bool match_include_line(std::string_view line, char& opening, std::string& name, size_t* after) {
    size_t at = 0;
    auto skip_spaces = [&] {
        while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
    };
    skip_spaces();
    if (at >= line.size() || line[at] != '#') return false;
    ++at;
    skip_spaces();
    if (line.compare(at, 7, "include") != 0) return false;
    at += 7;
    skip_spaces();
    if (at >= line.size() || (line[at] != '<' && line[at] != '"')) return false;
    opening = line[at++];
    const size_t start = at;
    while (at < line.size() && line[at] != '>' && line[at] != '"') ++at;
    if (at == start || at >= line.size()) return false;
    name = std::string(line.substr(start, at - start));
    if (after) *after = at + 1;
    return true;
}

std::vector<fs::path> find_included_files(std::string_view source, const fs::path& source_dir,
                                          const std::vector<fs::path>& search_dirs, std::vector<std::string>* unresolved) {
    std::vector<fs::path> found;
    std::set<std::string> visited;
    // Each pending entry: the text to scan and the directory its quoted includes are relative to.
    std::vector<std::pair<std::string, fs::path>> pending{{std::string(source), source_dir}};
    while (!pending.empty()) {
        auto [text, directory] = std::move(pending.back());
        pending.pop_back();
        std::istringstream lines(text);  // a commented-out include only widens the cache key
        std::string line;
        while (std::getline(lines, line)) {
            char opening = 0;
            std::string name;
            if (!match_include_line(line, opening, name)) continue;
            std::vector<fs::path> candidates;
            if (opening == '"') candidates.push_back(directory / name);
            for (const auto& dir : search_dirs) candidates.push_back(dir / name);
            bool resolved = false;
            for (const auto& candidate : candidates) {
                std::error_code error;
                if (!fs::is_regular_file(candidate, error)) continue;
                const fs::path absolute = fs::weakly_canonical(candidate, error);
                resolved = true;
                if (!visited.insert(absolute.string()).second) break;
                found.push_back(absolute);
                std::ifstream in(absolute, std::ios::binary);
                std::ostringstream content;
                content << in.rdbuf();
                pending.emplace_back(content.str(), absolute.parent_path());
                break;
            }
            if (!resolved && unresolved) unresolved->push_back(name);
        }
    }
    return found;
}

std::optional<KernelDecl> find_function(std::string_view source, std::string_view name) {
    const std::string code = blank_comments_and_strings(source);
    const std::string word(name);
    for (size_t at = code.find(word); at != std::string::npos; at = code.find(word, at + 1)) {
        const bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(code[at - 1])) || code[at - 1] == '_');
        size_t open = at + word.size();
        if (!starts || (open < code.size() && (std::isalnum(static_cast<unsigned char>(code[open])) || code[open] == '_'))) continue;
        while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
        if (open >= code.size() || code[open] != '(') continue;
        // A declaration has a return type before the name: a word (or * & >) ends just before it.
        size_t before = at;
        while (before > 0 && std::isspace(static_cast<unsigned char>(code[before - 1]))) --before;
        if (before == 0) continue;
        const char previous = code[before - 1];
        if (!(std::isalnum(static_cast<unsigned char>(previous)) || previous == '_' || previous == '*' || previous == '&' || previous == '>'))
            continue;
        const size_t close = matching_paren(code, open);
        if (close == std::string::npos) break;
        size_t next = close + 1;
        while (next < code.size() && std::isspace(static_cast<unsigned char>(code[next]))) ++next;
        if (next >= code.size() || (code[next] != '{' && code[next] != ';')) continue;  // a call, not a declaration
        KernelDecl function;
        function.name = word;
        function.line = line_at(code, at);
        function.params = split_params(code.substr(open + 1, close - open - 1));
        return function;
    }
    return std::nullopt;
}

namespace {
// A conditional directive (`#ifdef`, `#ifndef`, `#if`, `#elif`, `#else`, `#endif`) and the rest of its
// line, read as std::regex R"(^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)$)" would, by hand: the
// regex recursed once per character and overflowed the stack on a long line (tests/fuzz/fuzz_spec).
bool match_conditional(const std::string& line, std::string& kind, std::string& rest) {
    auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    size_t at = 0;
    while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
    if (at >= line.size() || line[at] != '#') return false;
    ++at;
    while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at]))) ++at;
    const size_t start = at;
    while (at < line.size() && is_word(line[at])) ++at;
    const std::string word = line.substr(start, at - start);
    if (word != "ifdef" && word != "ifndef" && word != "if" && word != "elif" && word != "else" && word != "endif") return false;
    if (line.find('\r', at) != std::string::npos) return false;
    kind = word;
    rest = line.substr(at);
    return true;
}
}  // namespace

std::vector<bool> lines_defining(std::string_view source, std::string_view macro) {
    std::vector<bool> lines{false};  // index 0 unused: lines are 1-based
    std::vector<std::pair<bool, bool>> stack;  // (this #if tests the macro, the branch is the macro's)
    const std::string name(macro);
    std::istringstream text{std::string(source)};
    std::string line;
    while (std::getline(text, line)) {
        std::string kind, rest;
        if (match_conditional(line, kind, rest)) {
            const bool names = rest.find(name) != std::string::npos;
            if (kind == "ifdef") stack.emplace_back(names, names);
            else if (kind == "ifndef") stack.emplace_back(names, false);
            else if (kind == "if") stack.emplace_back(names, names && rest.find('!') == std::string::npos);
            else if ((kind == "else" || kind == "elif") && !stack.empty()) stack.back().second = false;
            else if (kind == "endif" && !stack.empty()) stack.pop_back();
        }
        bool inside = false;
        for (const auto& [tests, taken] : stack) inside = inside || (tests && taken);
        lines.push_back(inside);
    }
    return lines;
}

}  // namespace kplay
