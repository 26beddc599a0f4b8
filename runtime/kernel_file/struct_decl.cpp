// Reading kplay-struct lines and the definitions of the structs they fill.
#include "kernel_file/struct_decl.hpp"

#include <optional>
#include <string>
#include <regex>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kplay_lines.hpp"

namespace kplay {

namespace {

// The type a parameter is declared with, without qualifiers: "const CSRMatrix" -> "CSRMatrix".
std::string struct_type_name(std::string type) {
    for (const char* qualifier : {"const ", "struct ", "__grid_constant__ ", "volatile "})
        for (size_t at = type.find(qualifier); at != std::string::npos; at = type.find(qualifier)) type.erase(at, std::string(qualifier).size());
    return trim(type);
}

// The body between the braces of `struct NAME { ... }` or `typedef struct [TAG] { ... } NAME;`.
std::optional<std::string> struct_body(const std::string& blank, const std::string& name) {
    std::smatch match;
    if (std::regex_search(blank, match, std::regex("\\b(struct|class)\\s+" + name + "\\s*\\{([^}]*)\\}")))
        return match[2].str();
    if (std::regex_search(blank, match, std::regex("\\btypedef\\s+struct\\s*\\w*\\s*\\{([^}]*)\\}\\s*" + name + "\\s*;")))
        return match[1].str();
    return std::nullopt;
}

// The fields of a struct body: `int* a; float *b, *c; int n;`.
std::vector<StructField> parse_fields(const std::string& body, const std::string& at) {
    static const std::regex declarator(R"(^\s*(\**)\s*([A-Za-z_]\w*)\s*$)");
    std::vector<StructField> fields;
    for (const std::string& statement : split_list(body, ';')) {
        if (statement.find_first_of("()[]:{=") != std::string::npos)
            throw InputError(at + "the struct's member '" + statement +
                             "' is not a plain field: kplay lays out pointers and scalars only (no arrays, bit fields, functions or defaults)");
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
    const auto body = struct_body(blank, decl.type);
    if (!body) throw InputError(at + decl.param + " is a '" + decl.type + "', but the file defines no `struct " + decl.type + " { ... };`");
    decl.fields = parse_fields(*body, at + decl.param + ": ");
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
