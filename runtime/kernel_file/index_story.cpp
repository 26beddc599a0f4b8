// Regular expressions over the kernel's text: the store's subscript, the index variable's definition
// above it (the nearest one), and the built-ins replaced by numbers.
#include "kernel_file/index_story.hpp"

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
    if (std::regex_match(subscript, identifier)) {
        // The nearest definition above: `int i = ...;` (any integer type, const or not).
        const std::regex definition(R"((?:^|[;{(\s])(?:const\s+)?(?:unsigned|signed|int|long|short|size_t|auto|u?int(?:8|16|32|64)_t)(?:\s+(?:int|long))*\s+)" +
                                    subscript + R"(\s*=\s*([^;]+);)");
        for (int at = line - 1; at >= 0 && at >= line - 60; --at) {
            std::smatch found;
            if (!std::regex_search(lines[static_cast<size_t>(at)], found, definition)) continue;
            const std::string expression = trim(found[1]);
            if (!has_builtin(expression)) return {};
            return {subscript, expression};
        }
        return {};
    }
    if (!has_builtin(subscript)) return {};
    return {"", subscript};
}

std::string tell_index(const IndexRecipe& recipe, const ThreadValues& values) {
    if (recipe.empty()) return {};
    if (recipe.name.empty()) return "index " + recipe.expression + " = " + with_values(recipe.expression, values);
    return recipe.name + " = " + recipe.expression + " = " + with_values(recipe.expression, values);
}

std::string index_story(const std::string& source, int line, const ThreadValues& values) {
    return tell_index(index_recipe(source, line), values);
}

}  // namespace kplay
