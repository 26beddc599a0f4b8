// Reading kplay-struct lines and the definitions of the structs they fill.
#include "kernel_file/struct_decl.hpp"

#include <optional>
#include <string>
#include <regex>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kernel_types.hpp"
#include "kernel_file/kplay_lines.hpp"

namespace kplay {

namespace {

// The type a parameter is declared with, without qualifiers: "const CSRMatrix" -> "CSRMatrix".
std::string struct_type_name(std::string type) {
    for (const char* qualifier : {"const ", "struct ", "__grid_constant__ ", "volatile "})
        for (size_t at = type.find(qualifier); at != std::string::npos; at = type.find(qualifier)) type.erase(at, std::string(qualifier).size());
    return trim(type);
}

size_t matching_brace(const std::string& text, size_t open) {
    int depth = 0;
    for (size_t i = open; i < text.size(); ++i) {
        if (text[i] == '{') ++depth;
        if (text[i] == '}' && --depth == 0) return i;
    }
    return std::string::npos;
}

// The body between the braces of `struct NAME { ... }` or `typedef struct [TAG] { ... } NAME;`, braces
// inside it (a default `int n{};`, a member function's body) included.
std::optional<std::string> struct_body(const std::string& blank, const std::string& name) {
    std::smatch match;
    size_t open = std::string::npos;
    if (std::regex_search(blank, match, std::regex("\\b(struct|class)\\s+" + name + "\\s*(final\\s*)?\\{")))
        open = static_cast<size_t>(match.position(0) + match.length(0) - 1);
    static const std::regex typedef_struct(R"(\btypedef\s+struct\s*\w*\s*\{)");
    for (auto it = std::sregex_iterator(blank.begin(), blank.end(), typedef_struct); open == std::string::npos && it != std::sregex_iterator(); ++it) {
        const size_t brace = static_cast<size_t>(it->position(0) + it->length(0) - 1);
        const size_t close = matching_brace(blank, brace);
        std::smatch tail;
        const std::string after = close == std::string::npos ? "" : blank.substr(close + 1, 200);
        if (std::regex_search(after, tail, std::regex("^\\s*" + name + "\\s*;"))) open = brace;
    }
    if (open == std::string::npos) return std::nullopt;
    const size_t close = matching_brace(blank, open);
    if (close == std::string::npos) return std::nullopt;
    return blank.substr(open + 1, close - open - 1);
}

// A body's top-level member declarations: statements ended by `;`, with a member function's `{ ... }`
// body ending its statement too, and access labels (`public:`) dropped.
std::vector<std::string> member_statements(const std::string& body) {
    std::vector<std::string> statements;
    std::string current;
    for (size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c == '{') {
            const size_t close = matching_brace(body, i);
            const bool function_body = trim(current).size() > 0 && trim(current).back() != '=' &&
                                       current.find('(') != std::string::npos && current.find('=') == std::string::npos;
            if (close == std::string::npos) break;
            if (function_body) {  // `Params() {}`, `__device__ int size() const { return n; }`
                statements.push_back(trim(current) + "{}");
                current.clear();
            } else {
                current += body.substr(i, close - i + 1);  // a default: `int n{};`
            }
            i = close;
            continue;
        }
        if (c == ';') {
            statements.push_back(trim(current));
            current.clear();
            continue;
        }
        current += c;
    }
    if (!trim(current).empty()) statements.push_back(trim(current));
    std::vector<std::string> kept;
    static const std::regex label(R"(^\s*(public|private|protected)\s*:\s*)");
    for (std::string statement : statements) {
        statement = std::regex_replace(statement, label, "");
        if (!trim(statement).empty()) kept.push_back(trim(statement));
    }
    return kept;
}

// The fields of a struct body: `int* a; float *b, *c; int n{}; float scale = 1.0f;`. Member functions and
// static members take no room in the object and are passed over; a default value is the kernel's business
// (the kplay-struct line gives every field its value anyway).
std::vector<StructField> parse_fields(const std::string& body, const std::string& at) {
    static const std::regex declarator(R"(^\s*(\**)\s*([A-Za-z_]\w*)\s*$)");
    static const std::regex static_member(R"(^(static|using|typedef|friend|template|enum)\b)");
    std::vector<StructField> fields;
    for (std::string statement : member_statements(body)) {
        if (std::regex_search(statement, static_member)) continue;
        if (statement.find('(') != std::string::npos && statement.find('=') == std::string::npos) continue;  // a member function
        // Defaults: `int n{};`, `int n = 0;`, `float* p{nullptr};`.
        if (const size_t equals = statement.find('='); equals != std::string::npos) statement = trim(statement.substr(0, equals));
        if (const size_t brace = statement.find('{'); brace != std::string::npos) statement = trim(statement.substr(0, brace));
        if (statement.find_first_of("()[]:") != std::string::npos)
            throw InputError(at + "the struct's member '" + statement +
                             "' is not a plain field: kplay lays out pointers and scalars only (no arrays, bit fields or function pointers)");
        // The type is everything before the first declarator's name; later declarators share it.
        static const std::regex first(R"(^(.*?[\s*])([A-Za-z_]\w*)\s*(,.*)?$)");
        std::smatch match;
        if (!std::regex_match(statement, match, first)) throw InputError(at + "cannot read the struct's member '" + statement + "'");
        std::string base = trim(match[1].str());
        std::string stars;
        while (!base.empty() && (base.back() == '*' || base.back() == ' ')) {
            if (base.back() == '*') stars += '*';
            base.pop_back();
        }
        std::vector<std::string> names{stars + match[2].str()};
        for (const std::string& more : split_list(match[3].str(), ',')) names.push_back(more);
        for (const std::string& name : names) {
            std::smatch parts;
            if (!std::regex_match(name, parts, declarator)) throw InputError(at + "cannot read the struct's member '" + statement + "'");
            fields.push_back({parts[2].str(), base + parts[1].str(), !parts[1].str().empty(), ""});
        }
    }
    return fields;
}

// The standard library's aggregates of scalars: std::pair<A, B> (fields first, second) and
// std::array<T, N> (fields 0 .. N-1), in std:: or cuda::std::. nullopt for any other type.
std::optional<std::vector<StructField>> standard_aggregate(const std::string& type) {
    static const std::regex pair(R"(^(?:(?:cuda::)?std::|::std::)?pair\s*<(.*)>$)");
    static const std::regex array(R"(^(?:(?:cuda::)?std::|::std::)?array\s*<(.*),\s*(\d+)\s*>$)");
    std::smatch match;
    const auto field = [](const std::string& name, std::string field_type) {
        field_type = trim(field_type);
        return StructField{name, field_type, field_type.find('*') != std::string::npos, ""};
    };
    if (std::regex_match(type, match, pair)) {
        const std::vector<std::string> parts = split_list(match[1].str(), ',');
        if (parts.size() != 2) return std::nullopt;
        return std::vector<StructField>{field("first", parts[0]), field("second", parts[1])};
    }
    if (std::regex_match(type, match, array)) {
        const int count = std::stoi(match[2].str());
        if (count < 1 || count > 64) return std::nullopt;
        std::vector<StructField> fields;
        for (int i = 0; i < count; ++i) fields.push_back(field(std::to_string(i), match[1].str()));
        return fields;
    }
    return std::nullopt;
}

StructDecl read_line(const KplayLine& line, const std::string& blank, const std::string& file,
                     const std::vector<KernelDecl>& kernels) {
    const std::string at = file + ":" + std::to_string(line.number) + ": kplay-struct: ";
    std::vector<std::string> tokens;
    for (std::string token : split_list(line.rest, ' ')) tokens.push_back(token);
    if (tokens.empty() || tokens[0].find('=') != std::string::npos)
        throw InputError(at + "name the kernel parameter first, e.g. '// kplay-struct: matrix rowPtrs=row_ptr values=vals numRows=N'");
    StructDecl decl;
    decl.param = tokens[0];
    decl.line = line.number;
    for (const KernelDecl& kernel : kernels)
        for (const KernelParam& param : kernel.params)
            if (param.name == decl.param && decl.type.empty()) {
                if (param.is_pointer())
                    throw InputError(at + decl.param + " is a pointer ('" + param.type + "'); kplay-struct fills a struct passed by value");
                decl.type = struct_type_name(param.type);
            }
    if (decl.type.empty()) throw InputError(at + "no kernel in the file has a parameter named '" + decl.param + "'");
    // An alias (`using Seed = std::pair<uint64_t, uint64_t>;`) is the type it names.
    const TypeAliases aliases = type_aliases(blank);
    for (int depth = 0; depth < 8 && aliases.count(decl.type); ++depth) decl.type = struct_type_name(aliases.at(decl.type));
    if (const auto standard = standard_aggregate(decl.type)) {
        decl.fields = *standard;
    } else {
        const auto body = struct_body(blank, decl.type);
        if (!body)
            throw InputError(at + decl.param + " is a '" + decl.type + "', but the file defines no `struct " + decl.type +
                             " { ... };` (kplay-struct also fills std::pair<A, B> and std::array<T, N>)");
        decl.fields = parse_fields(*body, at + decl.param + ": ");
    }
    std::vector<std::string> names;
    for (const StructField& field : decl.fields) names.push_back(field.name);
    for (size_t i = 1; i < tokens.size(); ++i) {
        const auto equals = tokens[i].find('=');
        const std::string key = equals == std::string::npos ? "" : tokens[i].substr(0, equals);
        StructField* field = nullptr;
        for (StructField& candidate : decl.fields)
            if (candidate.name == key) field = &candidate;
        if (!field) throw InputError(at + decl.param + ": '" + tokens[i] + "' names no field of struct " + decl.type + " (fields: " + join(names) + ")");
        if (!field->value.empty()) throw InputError(at + decl.param + ": field '" + key + "' is given twice");
        field->value = tokens[i].substr(equals + 1);
        if (field->value.empty()) throw InputError(at + decl.param + ": field '" + key + "' needs a value");
    }
    for (const StructField& field : decl.fields)
        if (field.value.empty())
            throw InputError(at + decl.param + ": field '" + field.name + "' (" + field.type + ") of struct " + decl.type +
                             " has no value: give it one, e.g. " + field.name + (field.pointer ? "=BUFFER or =null" : "=n"));
    return decl;
}

}  // namespace

std::vector<StructDecl> read_struct_lines(std::string_view source, const std::string& file, const std::vector<KernelDecl>& kernels) {
    const std::string blank = blank_comments_and_strings(source);
    std::vector<StructDecl> decls;
    for (const KplayLine& line : kplay_lines(source, "struct")) {
        StructDecl decl = read_line(line, blank, file, kernels);
        for (const StructDecl& other : decls)
            if (other.param == decl.param)
                throw InputError(file + ":" + std::to_string(line.number) + ": kplay-struct: " + decl.param + " is declared twice (also line " +
                                 std::to_string(other.line) + ")");
        decls.push_back(std::move(decl));
    }
    return decls;
}

}  // namespace kplay
