// Rewriting a kernel file for its host reference without moving any line.
#include "reference/reference_source.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "base/error.hpp"
#include "emu/emu_source.hpp"
#include "reference/host_reference.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

int line_of(const std::string& text, size_t offset) {
    return 1 + static_cast<int>(
                   std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
}

size_t line_start(const std::string& text, size_t offset) {
    if (offset == 0) return 0;
    const size_t newline = text.rfind('\n', offset - 1);
    return newline == std::string::npos ? 0 : newline + 1;
}

// Whether `offset` lies on a preprocessor directive, continuation lines included: a keyword in
// `#define HD __host__ __device__` declares nothing.
bool in_directive(const std::string& blank, size_t offset) {
    for (size_t start = line_start(blank, offset);;) {
        const size_t first = blank.find_first_not_of(" \t", start);
        if (first != std::string::npos && blank[first] == '#') return true;
        if (start < 2) return false;
        size_t last = start - 2;  // the previous line's last character
        if (blank[last] == '\r' && last > 0) --last;
        if (blank[last] != '\\') return false;
        start = line_start(blank, last);
    }
}

// The next `word` at or after `from` that stands alone (not part of a longer identifier).
size_t find_word(const std::string& text, const std::string& word, size_t from) {
    for (size_t at = text.find(word, from); at != std::string::npos; at = text.find(word, at + 1)) {
        const bool before = at > 0 && is_word_char(text[at - 1]);
        const bool after = at + word.size() < text.size() && is_word_char(text[at + word.size()]);
        if (!before && !after) return at;
    }
    return std::string::npos;
}

// From a declaration's keyword to the first `{`, `;` or `}` outside parentheses and brackets.
size_t head_end(const std::string& blank, size_t from) {
    int depth = 0;
    for (size_t i = from; i < blank.size(); ++i) {
        const char c = blank[i];
        if (c == '(' || c == '[')
            ++depth;
        else if ((c == ')' || c == ']') && depth > 0)
            --depth;
        else if (depth == 0 && (c == '{' || c == ';' || c == '}'))
            return i;
    }
    return std::string::npos;
}

// A function's head has a parameter list and no initializer: `__device__ int t[2] = {1, 2};` and
// `__device__ auto f = [] {...};` are variables.
bool is_function_head(const std::string& head) {
    if (head.find('(') == std::string::npos) return false;
    int depth = 0;
    for (size_t i = 0; i < head.size(); ++i) {
        const char c = head[i];
        if (c == '(' || c == '[')
            ++depth;
        else if ((c == ')' || c == ']') && depth > 0)
            --depth;
        else if (c == '=' && depth == 0) {
            const bool comparison = (i > 0 && std::string("=!<>").find(head[i - 1]) != std::string::npos) ||
                                    (i + 1 < head.size() && head[i + 1] == '=');
            const size_t operator_word = head.rfind("operator", i);
            const bool is_operator =  // operator=, operator+= and their kin
                operator_word != std::string::npos && head.find_first_not_of(" \t\n+-*/%^&|<>!=~", operator_word + 8) > i;
            if (!comparison && !is_operator) return false;
        }
    }
    return true;
}

// Where the declaration holding `keyword_at` starts: after the last `;`, `{` or `}`, and after any
// directive line in between (an #if, a #define).
size_t declaration_start(const std::string& blank, size_t keyword_at) {
    const size_t previous = keyword_at == 0 ? std::string::npos : blank.find_last_of(";{}", keyword_at - 1);
    const size_t start = previous == std::string::npos ? 0 : previous + 1;
    for (size_t line = line_start(blank, keyword_at); line > start;) {
        const size_t above = line_start(blank, line - 1);
        if (in_directive(blank, above)) return line;
        line = above;
    }
    return start;
}

size_t matching_brace(const std::string& blank, size_t open) {
    int depth = 0;
    for (size_t i = open; i < blank.size(); ++i) {
        if (blank[i] == '{')
            ++depth;
        else if (blank[i] == '}' && --depth == 0)
            return i;
    }
    return std::string::npos;
}

size_t matching_paren(const std::string& blank, size_t open) {
    int depth = 0;
    for (size_t i = open; i < blank.size(); ++i) {
        if (blank[i] == '(')
            ++depth;
        else if (blank[i] == ')' && --depth == 0)
            return i;
    }
    return blank.size();
}

}  // namespace

std::string blank_device_bodies(const std::string& source, const std::string& blank) {
    std::string out;
    size_t copied = 0;
    for (size_t at = 0;;) {
        const size_t global = find_word(blank, "__global__", at), device = find_word(blank, "__device__", at);
        const size_t keyword = std::min(global, device);
        if (keyword == std::string::npos) break;
        at = keyword + 10;
        if (in_directive(blank, keyword)) continue;
        const size_t open = head_end(blank, keyword);
        if (open == std::string::npos || blank[open] != '{' || !is_function_head(blank.substr(keyword, open - keyword)))
            continue;
        const size_t start = declaration_start(blank, keyword);
        // A __host__ __device__ function is the reference's too; so is a constexpr __device__ one (nvcc's
        // --expt-relaxed-constexpr lets host code call it, and a constexpr body blanked would not compile).
        const std::string head = blank.substr(start, open - start);
        if (keyword == device && (find_word(head, "__host__", 0) != std::string::npos || find_word(head, "constexpr", 0) != std::string::npos))
            continue;
        const size_t close = matching_brace(blank, open);
        if (close == std::string::npos) break;  // unbalanced: the compiler will say where
        out.append(source, copied, open + 1 - copied);
        out.append(static_cast<size_t>(std::count(source.begin() + static_cast<long>(open),
                                                  source.begin() + static_cast<long>(close), '\n')),
                   '\n');
        copied = close;
        at = close + 1;
    }
    out.append(source, copied, std::string::npos);
    return out;
}

const char* reference_entry_file_name() { return "<kplay host reference entry>"; }

namespace {

[[noreturn]] void refuse(const std::string& display_path, const std::string& text, size_t offset,
                         const std::string& what) {
    throw InputError(display_path + ":" + std::to_string(line_of(text, offset)) + ": " + what);
}

// Inline assembly, and asm labels (`void f() asm("_init");`), anywhere the compiler will see.
void refuse_asm(const std::string& display_path, const std::string& text, const std::string& blank) {
    std::smatch match;
    if (std::regex_search(blank, match, std::regex(R"(\b(asm|__asm__|__asm)\b)")))
        refuse(display_path, text, static_cast<size_t>(match.position(0)),
               "inline assembly (asm) is not allowed in a file's host code when kplay builds its host reference: "
               "a reference is plain C++ (a kernel's or a __device__ function's body may keep its inline PTX).");
}

// Attributes that make code run when the object is loaded or unloaded, outside the sandboxed call.
void refuse_load_time_attributes(const std::string& display_path, const std::string& text, const std::string& blank) {
    static const std::regex opening(R"(\b__attribute(__)?\s*\(\s*\(|\[\[)");
    static const std::regex refused(R"(\b(constructor|destructor|ifunc|section|target_clones)\b)");
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), opening); it != std::sregex_iterator(); ++it) {
        const size_t begin = static_cast<size_t>(it->position(0));
        const bool bracket = blank.compare(begin, 2, "[[") == 0;
        const size_t end =
            bracket ? std::min(blank.find("]]", begin), blank.size()) : matching_paren(blank, blank.find('(', begin));
        const std::string inside = blank.substr(begin, end - begin);
        std::smatch word;
        if (std::regex_search(inside, word, refused))
            refuse(display_path, text, begin,
                   "the attribute '" + word[1].str() +
                       "' is not allowed when kplay builds a host reference: it could run code when kplay loads the "
                       "object, outside the sandbox.");
    }
}

void check_function_name(const std::string& function) {
    if (!std::regex_match(function, std::regex(R"((::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*)")))
        throw InputError("'" + function +
                         "' cannot name a host reference function: give a C++ function name such as kplay_reference.");
}

}  // namespace

std::string prepare_reference_source(const std::string& source, const std::string& display_path,
                                     const std::string& function, const std::vector<std::string>& constants) {
    check_function_name(function);
    std::string text = blank_device_bodies(source, blank_comments_and_strings(source));
    const std::string blank = blank_comments_and_strings(text);
    refuse_asm(display_path, text, blank);
    refuse_load_time_attributes(display_path, text, blank);
    if (!text.empty() && text.back() != '\n') text += '\n';
    return line_directive(display_path) + text + line_directive(reference_entry_file_name()) +
           "extern \"C\" __attribute__((visibility(\"default\"))) void " + host_reference_entry_symbol() +
           "(void** args) { ::kplay_ref::invoke(&" + function +
           ", args); }\n"
           "extern \"C\" __attribute__((visibility(\"default\"))) int " +
           host_reference_params_symbol() + "(unsigned long* sizes, int max) { return ::kplay_ref::param_sizes(&" +
           function + ", sizes, max); }\n" + constant_accessors(constants);
}

}  // namespace kplay
