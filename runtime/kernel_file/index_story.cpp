// Regular expressions over the kernel's text: the store's subscript, the index variable's definition
// above it (the nearest one), and the built-ins replaced by numbers.
#include "kernel_file/index_story.hpp"

#include "base/expression.hpp"

#include <algorithm>
#include <exception>
#include <regex>
#include <sstream>
#include <vector>

namespace kplay {

namespace {

std::string trim(std::string text) {
    const size_t begin = text.find_first_not_of(" \t");
    const size_t end = text.find_last_not_of(" \t");
    return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

// blockIdx.x -> 7, and so on; the rest stays as written.
std::string with_values(const std::string& expression, const ThreadValues& v) {
    static const std::regex builtin(R"(\b(blockIdx|threadIdx|blockDim|gridDim)\s*\.\s*([xyz])\b)");
    std::string out;
    auto last = expression.cbegin();
    for (auto it = std::sregex_iterator(expression.begin(), expression.end(), builtin); it != std::sregex_iterator(); ++it) {
        out.append(last, expression.cbegin() + it->position());
        const std::string name = (*it)[1];
        const int axis = (*it)[2].str()[0] - 'x';
        const unsigned* values = name == "blockIdx" ? v.block_idx : name == "threadIdx" ? v.thread_idx : name == "blockDim" ? v.block_dim : v.grid_dim;
        out += std::to_string(values[axis]);
        last = expression.cbegin() + it->position() + it->length();
    }
    out.append(last, expression.cend());
    return out;
}

bool has_builtin(const std::string& expression) {
    static const std::regex builtin(R"(\b(blockIdx|threadIdx|blockDim|gridDim)\s*\.\s*[xyz]\b)");
    return std::regex_search(expression, builtin);
}

}  // namespace

namespace {

// A declaration's declarators split at its top-level commas: `r=a*b+tr, c=f(x, y)` -> two.
std::vector<std::string> declarators(const std::string& list) {
    std::vector<std::string> parts(1);
    int depth = 0;
    for (const char c : list) {
        if (c == '(' || c == '[' || c == '<') ++depth;
        if (c == ')' || c == ']' || c == '>') --depth;
        if (c == ',' && depth == 0) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

// The nearest definition of `name` at or above line `below` (1-based, exclusive): `int i = ...;` of any
// integer type, const or not, one declarator of several included (`int r = ..., c = ...;`), within 60
// lines. Its expression, or empty.
std::string definition_of(const std::vector<std::string>& lines, const std::string& name, int below) {
    static const std::regex declaration(
        R"((?:^|[;{(\s])(?:const\s+)?(?:unsigned|signed|int|long|short|size_t|auto|u?int(?:8|16|32|64)_t)(?:\s+(?:int|long))*\s+([^;]+);)");
    const std::regex this_one(R"(^\s*)" + name + R"(\s*=\s*(.+)$)");
    for (int at = below - 2; at >= 0 && at >= below - 61; --at) {
        const std::string& text = lines[static_cast<size_t>(at)];
        for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration); it != std::sregex_iterator(); ++it)
            for (const std::string& declarator : declarators((*it)[1].str())) {
                std::smatch found;
                if (std::regex_match(declarator, found, this_one)) return trim(found[1]);
            }
    }
    return {};
}

// `expression` with the variables in it that the lines above line `line` define from built-ins put in
// their place, parenthesised (`blockIdx.y*blockDim.y+tr` -> `blockIdx.y*blockDim.y+(threadIdx.y)`), so
// its value can be worked out; empty when none is.
std::string inlined(const std::vector<std::string>& lines, int line, const std::string& expression) {
    static const std::regex identifier(R"(\b[A-Za-z_]\w*\b)");
    std::string out;
    bool any = false;
    size_t last = 0;
    for (auto it = std::sregex_iterator(expression.begin(), expression.end(), identifier); it != std::sregex_iterator(); ++it) {
        const size_t at = static_cast<size_t>(it->position());
        if (at > 0 && expression[at - 1] == '.') continue;
        const std::string defined = definition_of(lines, it->str(), line);
        if (!has_builtin(defined)) continue;
        out += expression.substr(last, at - last) + "(" + defined + ")";
        last = at + it->str().size();
        any = true;
    }
    return any ? out + expression.substr(last) : std::string();
}

// The recipe of `expression` (named `name`, empty for a subscript), with the variables in it that the lines
// above define from built-ins; none when neither it nor they have a built-in.
IndexRecipe recipe_of(const std::vector<std::string>& lines, int line, const std::string& name, const std::string& expression) {
    if (expression.empty()) return {};
    IndexRecipe recipe{name, expression, {}};
    static const std::regex identifier(R"(\b[A-Za-z_]\w*\b)");
    for (auto it = std::sregex_iterator(expression.begin(), expression.end(), identifier); it != std::sregex_iterator(); ++it) {
        const std::string part = it->str();
        const size_t at = static_cast<size_t>(it->position());
        if (at > 0 && expression[at - 1] == '.') continue;  // a member: blockIdx.x's x
        if (std::any_of(recipe.parts.begin(), recipe.parts.end(), [&](const IndexPart& p) { return p.name == part; })) continue;
        if (const std::string defined = definition_of(lines, part, line); has_builtin(defined))
            recipe.parts.push_back({part, defined, inlined(lines, line, defined)});
    }
    return has_builtin(expression) || !recipe.parts.empty() ? recipe : IndexRecipe{};
}

// "2*16 + 8" -> " = 40" where the expression reads as plain integer arithmetic; empty otherwise.
std::string value_of(const std::string& filled) {
    try {
        return " = " + std::to_string(evaluate_int_expr(filled, {}));
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace

IndexRecipe index_recipe(const std::string& source, int line) {
    std::vector<std::string> lines;
    std::istringstream in(source);
    for (std::string text; std::getline(in, text);) lines.push_back(text);
    if (line < 1 || static_cast<size_t>(line) > lines.size()) return {};
    static const std::regex store(R"(\b[A-Za-z_]\w*\s*\[([^\[\]]+)\]\s*(?:[-+*/|&^]?=)[^=])");
    std::smatch match;
    const std::string& text = lines[static_cast<size_t>(line) - 1];
    if (!std::regex_search(text, match, store)) return {};
    const std::string subscript = trim(match[1]);
    static const std::regex identifier(R"([A-Za-z_]\w*)");
    if (std::regex_match(subscript, identifier)) return recipe_of(lines, line, subscript, definition_of(lines, subscript, line + 1));
    return recipe_of(lines, line, "", subscript);
}

std::string tell_index(const IndexRecipe& recipe, const ThreadValues& values) {
    if (recipe.empty()) return {};
    std::string text = recipe.name.empty() ? "index " + recipe.expression : recipe.name + " = " + recipe.expression;
    if (has_builtin(recipe.expression)) text += " = " + with_values(recipe.expression, values);
    for (size_t i = 0; i < recipe.parts.size(); ++i) {
        const IndexPart& part = recipe.parts[i];
        const std::string filled = with_values(part.resolved.empty() ? part.expression : part.resolved, values);
        text += (i == 0 ? ", where " : ", ") + part.name + " = " + part.expression + " = " + filled + value_of(filled);
    }
    return text;
}

std::string index_story(const std::string& source, int line, const ThreadValues& values) {
    return tell_index(index_recipe(source, line), values);
}

}  // namespace kplay
