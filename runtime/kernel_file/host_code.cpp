// Finding a kernel file's host code and blanking it for the kernel's build.
#include "kernel_file/host_code.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "base/text.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `word` occurs in `text` as a whole word.
bool has_word(std::string_view text, std::string_view word) {
    for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        const size_t end = at + word.size();
        if ((at == 0 || !is_word_char(text[at - 1])) && (end >= text.size() || !is_word_char(text[end]))) return true;
    }
    return false;
}

int line_of(std::string_view text, size_t offset) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
}

// The offset of the brace matching the one at `open`, or npos.
size_t matching_brace(std::string_view code, size_t open) {
    int depth = 0;
    for (size_t at = open; at < code.size(); ++at) {
        if (code[at] == '{') ++depth;
        else if (code[at] == '}' && --depth == 0) return at;
    }
    return std::string_view::npos;
}

// A preprocessor directive: its first and last line (backslash continuations included), 0-based offsets.
struct Directive {
    size_t begin = 0, end = 0;  // [begin, end): the directive's text without its last newline
    std::string text;           // from the blanked code, continuations joined
};

std::vector<Directive> find_directives(std::string_view code) {
    std::vector<Directive> found;
    size_t at = 0;
    while (at < code.size()) {
        size_t first = at;
        while (first < code.size() && (code[first] == ' ' || code[first] == '\t')) ++first;
        size_t end = code.find('\n', at);
        if (end == std::string_view::npos) end = code.size();
        if (first < code.size() && code[first] == '#') {
            Directive directive{at, end, ""};
            for (;;) {
                std::string_view line = code.substr(at, directive.end - at);
                while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
                const bool continues = !line.empty() && line.back() == '\\' && directive.end < code.size();
                directive.text += std::string(continues ? line.substr(0, line.size() - 1) : line) + " ";
                if (!continues) break;
                at = directive.end + 1;
                directive.end = code.find('\n', at);
                if (directive.end == std::string_view::npos) directive.end = code.size();
            }
            end = directive.end;
            found.push_back(std::move(directive));
        }
        at = end + 1;
    }
    return found;
}

// "#  define  X(a) body" -> kind "define", rest "X(a) body".
void split_directive(const std::string& text, std::string& kind, std::string& rest) {
    size_t at = text.find('#') + 1;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    const size_t start = at;
    while (at < text.size() && is_word_char(text[at])) ++at;
    kind = text.substr(start, at - start);
    rest = trim(std::string_view(text).substr(at));
}

bool is_conditional(const std::string& kind) {
    return kind == "if" || kind == "ifdef" || kind == "ifndef" || kind == "elif" || kind == "else" || kind == "endif";
}

// Headers only host code includes: NVRTC has none of them, and a kernel needs none.
bool is_host_header(const std::string& name) {
    static const std::set<std::string> host_only{
        "torch/extension.h", "Python.h", "cuda_runtime.h", "cuda_runtime_api.h", "iostream", "iomanip", "fstream", "sstream",
        "string", "vector", "chrono", "random", "memory", "map", "unordered_map", "set", "thread", "numeric", "algorithm",
        "functional", "stdexcept", "sys/time.h", "time.h", "ctime"};
    for (const char* family : {"torch/", "ATen/", "c10/", "pybind11/"})
        if (name.rfind(family, 0) == 0) return true;
    return host_only.count(name) > 0;
}

// Words that mark host-library code: a macro body or a declaration that names one is host code.
bool names_host_library(std::string_view text) {
    for (const char* word : {"TORCH_CHECK", "TORCH_INTERNAL_ASSERT", "C10_CUDA_KERNEL_LAUNCH_CHECK", "C10_CUDA_CHECK", "AT_DISPATCH_FLOATING_TYPES",
                             "PYBIND11_MODULE", "TORCH_LIBRARY"})
        if (has_word(text, word)) return true;
    for (const char* space : {"torch", "at", "c10", "pybind11", "py"}) {
        const std::string qualified = std::string(space) + "::";
        for (size_t at = text.find(qualified); at != std::string_view::npos; at = text.find(qualified, at + 1))
            if (at == 0 || !is_word_char(text[at - 1])) return true;
    }
    return text.find("<<<") != std::string_view::npos;
}

// The code with every directive blanked: what the function scanner walks.
std::string without_directives(std::string code, const std::vector<Directive>& directives) {
    for (const auto& directive : directives)
        for (size_t at = directive.begin; at < directive.end; ++at)
            if (code[at] != '\n') code[at] = ' ';
    return code;
}

// The words before a header's first top-level '(' say what it declares.
struct Header {
    bool function = false;  // NAME(...) with no '=' before it, not a struct, class, union or enum
    bool scope = false;     // namespace X, extern "C"
    std::string name;
    size_t name_at = 0;
};

Header read_header(std::string_view code, size_t begin, size_t end) {
    Header header;
    const std::string_view text = code.substr(begin, end - begin);
    const std::string trimmed = trim(text);
    if (has_word(trimmed, "namespace") || (trimmed.rfind("extern", 0) == 0 && trimmed.find('(') == std::string::npos)) {
        header.scope = true;
        return header;
    }
    for (const char* word : {"struct", "class", "union", "enum"})
        if (has_word(text.substr(0, text.find('(')), word)) return header;
    const size_t open = text.find('(');
    if (open == std::string_view::npos || text.substr(0, open).find('=') != std::string_view::npos) return header;
    size_t name_end = open;
    while (name_end > 0 && std::isspace(static_cast<unsigned char>(text[name_end - 1]))) --name_end;
    size_t name_start = name_end;
    while (name_start > 0 && is_word_char(text[name_start - 1])) --name_start;
    if (name_start == name_end) return header;
    header.function = true;
    header.name = std::string(text.substr(name_start, name_end - name_start));
    header.name_at = begin + name_start;
    return header;
}

// Walks namespace scope: each declaration ends at a top-level ';', each definition at its closing brace.
// `declarations` receives the [begin, end) of every ';' declaration.
std::vector<SourceFunction> scan_scope(std::string_view code, const std::set<std::string>& device_macros,
                                       std::vector<std::pair<size_t, size_t>>* declarations) {
    std::vector<SourceFunction> functions;
    size_t at = 0;
    while (at < code.size()) {
        while (at < code.size() && (std::isspace(static_cast<unsigned char>(code[at])) || code[at] == ';' || code[at] == '}')) ++at;
        if (at >= code.size()) break;
        const size_t begin = at;
        int parens = 0;
        size_t i = begin;
        bool ended = false;
        for (; i < code.size() && !ended; ++i) {
            const char c = code[i];
            if (c == '(') ++parens;
            else if (c == ')') parens = std::max(0, parens - 1);
            else if (c == ';' && parens == 0) {
                if (declarations) declarations->emplace_back(begin, i + 1);
                ended = true;
            } else if (c == '}' && parens == 0) {
                ended = true;  // an enclosing scope closes: what came before was no declaration
            } else if (c == '{' && parens == 0) {
                const Header header = read_header(code, begin, i);
                const size_t close = matching_brace(code, i);
                if (header.scope) {  // its contents are namespace scope: walked next
                    i = i + 1;
                    break;
                }
                if (close == std::string_view::npos) { i = code.size(); break; }
                if (header.function) {
                    SourceFunction function;
                    function.name = header.name;
                    function.line = line_of(code, header.name_at);
                    function.begin = begin;
                    function.body_open = i;
                    function.end = close + 1;
                    const std::string_view head = code.substr(begin, i - begin);
                    function.is_device = has_word(head, "__global__") || has_word(head, "__device__");
                    for (const auto& macro : device_macros) function.is_device = function.is_device || has_word(head, macro);
                    function.is_constexpr = has_word(head, "constexpr") || has_word(head, "consteval");
                    functions.push_back(std::move(function));
                    i = close;
                    ended = true;
                } else {
                    i = close;  // a struct's body or an initializer: the declaration goes on to its ';'
                }
            }
        }
        at = std::max(i, begin + 1);
    }
    return functions;
}

// Macros whose bodies say __device__ or __global__ (`#define DEVICE __host__ __device__`): a function
// declared with one is device code.
std::set<std::string> device_macros(const std::vector<Directive>& directives) {
    std::set<std::string> names;
    for (const auto& directive : directives) {
        std::string kind, rest;
        split_directive(directive.text, kind, rest);
        if (kind != "define" || !(has_word(rest, "__device__") || has_word(rest, "__global__"))) continue;
        size_t end = 0;
        while (end < rest.size() && is_word_char(rest[end])) ++end;
        names.insert(rest.substr(0, end));
    }
    return names;
}

void blank(std::string& text, size_t begin, size_t end) {
    for (size_t at = begin; at < end && at < text.size(); ++at)
        if (text[at] != '\n') text[at] = ' ';
}

}  // namespace

std::vector<SourceFunction> find_defined_functions(std::string_view source) {
    const std::string code = blank_comments_and_strings(source);
    const std::vector<Directive> directives = find_directives(code);
    return scan_scope(without_directives(code, directives), device_macros(directives), nullptr);
}

std::map<std::string, std::string> object_macros(std::string_view source) {
    std::map<std::string, std::string> macros;
    for (const auto& directive : find_directives(blank_comments_and_strings(source))) {
        std::string kind, rest;
        split_directive(directive.text, kind, rest);
        size_t end = 0;
        while (end < rest.size() && is_word_char(rest[end])) ++end;
        if (kind != "define" || end == 0 || (end < rest.size() && rest[end] == '(')) continue;
        macros[rest.substr(0, end)] = trim(std::string_view(rest).substr(end));
    }
    return macros;
}

std::string namespace_scope_code(std::string_view source) {
    const std::string code = blank_comments_and_strings(source);
    const std::vector<Directive> directives = find_directives(code);
    std::string scope = without_directives(code, directives);
    for (const auto& function : scan_scope(scope, device_macros(directives), nullptr)) blank(scope, function.body_open, function.end);
    return scope;
}

namespace {

// The includes and macros to set aside, in order; `macros` collects the set-aside macros' names.
void set_aside_directives(std::string_view source, const std::vector<Directive>& directives, KernelBuildSource& build,
                          std::vector<std::pair<size_t, size_t>>& ranges) {
    std::set<std::string> macros;
    for (const auto& directive : directives) {
        std::string kind, rest;
        split_directive(directive.text, kind, rest);
        std::string what;
        if (kind == "include") {
            char opening = 0;
            std::string name;
            // The blanked code has lost a quoted name; the source's line still has it.
            const std::string_view line = source.substr(directive.begin, source.find('\n', directive.begin) - directive.begin);
            if (match_include_line(line, opening, name) && is_host_header(name))
                what = std::string("#include ") + opening + name + (opening == '<' ? '>' : '"');
        } else if (kind == "define") {
            size_t end = 0;
            while (end < rest.size() && is_word_char(rest[end])) ++end;
            const std::string name = rest.substr(0, end);
            bool host = names_host_library(rest.substr(end));
            for (const auto& macro : macros) host = host || has_word(rest.substr(end), macro);
            if (host) {
                macros.insert(name);
                what = "macro " + name;
            }
        }
        if (what.empty()) continue;
        build.set_aside.push_back({what, line_of(source, directive.begin), line_of(source, directive.end)});
        ranges.emplace_back(directive.begin, directive.end);
    }
}

}  // namespace

KernelBuildSource set_aside_host_code(std::string_view source) {
    KernelBuildSource build;
    const std::string code = blank_comments_and_strings(source);
    const std::vector<Directive> directives = find_directives(code);
    std::vector<std::pair<size_t, size_t>> ranges;
    set_aside_directives(source, directives, build, ranges);

    std::vector<std::pair<size_t, size_t>> declarations;
    const std::string scanned = without_directives(code, directives);
    const std::vector<SourceFunction> functions = scan_scope(scanned, device_macros(directives), &declarations);
    const std::vector<bool> reference = lines_defining(source, "KPLAY_REFERENCE");
    auto in_reference = [&](size_t offset) {
        const int line = line_of(source, offset);
        return line < static_cast<int>(reference.size()) && reference[static_cast<size_t>(line)];
    };
    for (const auto& function : functions) {
        if (function.is_device || function.is_constexpr || in_reference(function.begin)) continue;
        build.set_aside.push_back({"host function " + function.name, line_of(source, function.begin), line_of(source, function.end - 1)});
        ranges.emplace_back(function.begin, function.end);
    }
    for (const auto& [begin, end] : declarations) {
        const std::string_view text = std::string_view(scanned).substr(begin, end - begin);
        if (!names_host_library(text) || in_reference(begin)) continue;
        build.set_aside.push_back({"host declaration '" + trim(text.substr(0, std::min<size_t>(text.size(), 40))) + "'",
                                   line_of(source, begin), line_of(source, end - 1)});
        ranges.emplace_back(begin, end);
    }
    std::sort(build.set_aside.begin(), build.set_aside.end(),
              [](const SetAside& a, const SetAside& b) { return a.first_line < b.first_line; });

    build.text = std::string(source);
    for (const auto& [begin, end] : ranges) blank(build.text, begin, end);
    // A conditional inside a blanked function stays, so every #if keeps its #endif.
    for (const auto& directive : directives) {
        std::string kind, rest;
        split_directive(directive.text, kind, rest);
        if (is_conditional(kind)) build.text.replace(directive.begin, directive.end - directive.begin,
                                                     source.substr(directive.begin, directive.end - directive.begin));
    }
    return build;
}

std::string describe_set_aside(const std::vector<SetAside>& set_aside) {
    if (set_aside.empty()) return "";
    std::vector<std::string> parts;
    for (const auto& piece : set_aside)
        parts.push_back(piece.what + (piece.first_line == piece.last_line ? " (line " + std::to_string(piece.first_line) + ")"
                                                                          : " (lines " + std::to_string(piece.first_line) + "-" +
                                                                                std::to_string(piece.last_line) + ")"));
    return "host code set aside for the kernel's build: " + join(parts);
}

}  // namespace kplay
