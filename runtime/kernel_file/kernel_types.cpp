// Canonical parameter types: aliases from the file's text, built-in names, and a template instance's
// types from its mangled name (the Itanium demangler of the C++ runtime).
#include "kernel_file/kernel_types.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <regex>
#include <set>

#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Qualifiers dropped and spaces removed: "const float *__restrict__" -> "float*".
std::string compact(std::string type) {
    for (const char* qualifier : {"__restrict__", "__restrict", "restrict", "volatile", "const", "struct", "class", "typename"}) {
        const std::string word = qualifier;
        for (size_t at = type.find(word); at != std::string::npos; at = type.find(word, at)) {
            const size_t end = at + word.size();
            const bool starts = at == 0 || !is_word_char(type[at - 1]);
            const bool ends = end >= type.size() || !is_word_char(type[end]);
            if (starts && ends) type.erase(at, end - at);
            else at = end;
        }
    }
    std::string out;
    for (char c : type)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    if (out.rfind("::", 0) == 0) out.erase(0, 2);
    return out;
}

// Built-in names, and the names that stand for them (<stdint.h>, <sys/types.h>, CUDA's), as one
// spelling each. `long` and `long long` are one: both are 64 bits on every host kplay runs on.
const std::map<std::string, std::string>& builtin_names() {
    static const std::map<std::string, std::string> names = {
        {"void", "void"}, {"bool", "bool"}, {"char", "char"}, {"signedchar", "signedchar"}, {"unsignedchar", "unsignedchar"},
        {"short", "short"}, {"shortint", "short"}, {"signedshort", "short"}, {"unsignedshort", "unsignedshort"},
        {"unsignedshortint", "unsignedshort"}, {"int", "int"}, {"signed", "int"}, {"signedint", "int"}, {"unsigned", "unsigned"},
        {"unsignedint", "unsigned"}, {"long", "longlong"}, {"longint", "longlong"}, {"longlong", "longlong"}, {"longlongint", "longlong"},
        {"unsignedlong", "unsignedlonglong"}, {"unsignedlongint", "unsignedlonglong"}, {"unsignedlonglong", "unsignedlonglong"},
        {"unsignedlonglongint", "unsignedlonglong"}, {"float", "float"}, {"double", "double"},
        {"int8_t", "signedchar"}, {"uint8_t", "unsignedchar"}, {"int16_t", "short"}, {"uint16_t", "unsignedshort"},
        {"int32_t", "int"}, {"uint32_t", "unsigned"}, {"int64_t", "longlong"}, {"uint64_t", "unsignedlonglong"},
        {"size_t", "unsignedlonglong"}, {"ptrdiff_t", "longlong"}, {"intptr_t", "longlong"}, {"uintptr_t", "unsignedlonglong"},
        {"uint", "unsigned"}, {"ushort", "unsignedshort"}, {"ulong", "unsignedlonglong"}, {"u_char", "unsignedchar"},
        {"u_short", "unsignedshort"}, {"u_int", "unsigned"}, {"u_long", "unsignedlonglong"}, {"u_int8_t", "unsignedchar"},
        {"u_int16_t", "unsignedshort"}, {"u_int32_t", "unsigned"}, {"u_int64_t", "unsignedlonglong"},
        {"half", "__half"}, {"__half", "__half"}, {"nv_bfloat16", "__nv_bfloat16"}, {"__nv_bfloat16", "__nv_bfloat16"},
        {"half2", "__half2"}, {"__half2", "__half2"}, {"nv_bfloat162", "__nv_bfloat162"}, {"__nv_bfloat162", "__nv_bfloat162"},
        {"__nv_fp8_e4m3", "__nv_fp8_e4m3"}, {"__nv_fp8_e5m2", "__nv_fp8_e5m2"}};
    return names;
}


}  // namespace

TypeAliases type_aliases(std::string_view source) {
    const std::string blank = blank_comments_and_strings(source);
    TypeAliases aliases;
    static const std::regex typedef_line(R"(\btypedef\s+([^;{}()\[\]]+?)\s+([A-Za-z_]\w*)\s*;)");
    static const std::regex using_line(R"(\busing\s+([A-Za-z_]\w*)\s*=\s*([^;{}()\[\]]+?)\s*;)");
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), typedef_line); it != std::sregex_iterator(); ++it)
        aliases[(*it)[2].str()] = (*it)[1].str();
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), using_line); it != std::sregex_iterator(); ++it)
        aliases[(*it)[1].str()] = (*it)[2].str();
    return aliases;
}

std::string canonical_type(const std::string& type, const TypeAliases& aliases) {
    std::string text = compact(type);
    for (int depth = 0; depth < 8; ++depth) {  // an alias of an alias, but never a cycle
        const size_t end = text.find_first_of("*&");
        const std::string base = text.substr(0, end), rest = end == std::string::npos ? "" : text.substr(end);
        if (const auto builtin = builtin_names().find(base); builtin != builtin_names().end()) return builtin->second + rest;
        const auto alias = aliases.find(base);
        if (alias == aliases.end()) return text;
        text = compact(alias->second) + rest;
    }
    return text;
}

bool is_builtin_type(const std::string& canonical) {
    static const std::set<std::string> builtins = [] {
        std::set<std::string> all;
        for (const auto& [name, spelled] : builtin_names()) all.insert(spelled);
        return all;
    }();
    return builtins.count(canonical.substr(0, canonical.find_first_of("*&"))) > 0;
}

std::optional<std::vector<std::string>> instantiated_parameter_types(const std::string& lowered_name) {
    if (lowered_name.rfind("_Z", 0) != 0) return std::nullopt;  // extern "C": no types in the name
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(lowered_name.c_str(), nullptr, nullptr, &status), &std::free);
    if (status != 0 || !demangled) return std::nullopt;
    const std::string text = demangled.get();
    // "void k<float, 256>(float const*, float*, float)": the parameter list is the last top-level (...).
    if (text.empty() || text.back() != ')') return std::nullopt;
    int depth = 0;
    size_t open = std::string::npos;
    for (size_t i = text.size(); i-- > 0;) {
        if (text[i] == ')') ++depth;
        if (text[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos) return std::nullopt;
    const std::string list = text.substr(open + 1, text.size() - open - 2);
    if (list.empty() || list == "void") return std::vector<std::string>{};
    return split_type_list(list);
}

}  // namespace kplay
