// Parsing a task's sizes from text, and naming them back.
#include "kernel_file/task_sizes.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "base/error.hpp"
#include "base/text.hpp"

namespace kplay {

std::string named_sizes_text(const std::vector<std::string>& names, const std::vector<int64_t>& values,
                             std::string_view separator) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < names.size() && i < values.size(); ++i) parts.push_back(names[i] + "=" + std::to_string(values[i]));
    return join(parts, separator);
}

// "give 3 values like 1024x1024x1024 or M=1024,N=1024,K=1024", from the task's own default when it has one,
// so the example is a size the task is known to run at.
std::string size_example(const TaskSpec& task) {
    const auto& names = task.sizes.names;
    std::vector<int64_t> example = task.sizes.gpu_default;
    if (example.size() != names.size()) example.assign(names.size(), 1024);
    const std::string count = std::to_string(names.size()) + (names.size() == 1 ? " value" : " values");
    return "give " + count + " like " + size_values_text(example) + " or " + named_sizes_text(names, example, ",");
}

namespace {

[[noreturn]] void throw_size_error(const TaskSpec& task, std::string_view text, const std::string& problem) {
    std::string message = "size '" + std::string(text) + "' does not fit this task's sizes " + join(task.sizes.names) + ": ";
    if (!problem.empty()) message += problem + "; ";
    throw InputError(message + size_example(task));
}

std::optional<int64_t> parse_positive(std::string_view text) {
    const std::string digits = trim(text);
    int64_t value = 0;
    const char* end = digits.data() + digits.size();
    const auto result = std::from_chars(digits.data(), end, value);
    if (digits.empty() || result.ec != std::errc() || result.ptr != end || value <= 0) return std::nullopt;
    return value;
}

int64_t parse_size_value(const TaskSpec& task, std::string_view text, std::string_view part) {
    const auto value = parse_positive(part);
    if (!value) throw_size_error(task, text, "'" + trim(part) + "' is not a positive whole number");
    return *value;
}

std::vector<std::string> split_on_x(std::string_view text) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == 'x' || c == 'X')
            parts.emplace_back();
        else
            parts.back() += c;
    }
    return parts;
}

std::vector<int64_t> parse_named_sizes(const TaskSpec& task, std::string_view text) {
    const auto& names = task.sizes.names;
    std::vector<std::optional<int64_t>> found(names.size());
    for (const auto& part : split_list(text, ',')) {
        const auto equals = part.find('=');
        const std::string name = trim(std::string_view(part).substr(0, equals));
        const auto at = std::find(names.begin(), names.end(), name);
        if (equals == std::string::npos || at == names.end()) throw_size_error(task, text, "'" + name + "' is not one of them");
        auto& slot = found[static_cast<size_t>(at - names.begin())];
        if (slot) throw_size_error(task, text, name + " is given twice");
        slot = parse_size_value(task, text, std::string_view(part).substr(equals + 1));
    }
    std::vector<std::string> missing;
    std::vector<int64_t> values;
    for (size_t i = 0; i < names.size(); ++i) {
        if (!found[i]) missing.push_back(names[i]);
        values.push_back(found[i].value_or(0));
    }
    if (!missing.empty()) throw_size_error(task, text, join(missing) + (missing.size() == 1 ? " is" : " are") + " missing");
    return values;
}

}  // namespace

std::vector<int64_t> parse_size_values(const TaskSpec& task, std::string_view text) {
    const auto& names = task.sizes.names;
    if (names.empty()) throw InputError("task '" + task.name + "' has no sizes, so a size does not apply: leave it out");
    if (trim(text).empty()) throw_size_error(task, text, "it is empty");
    if (text.find('=') != std::string_view::npos) return parse_named_sizes(task, text);
    const auto parts = split_on_x(text);
    if (parts.size() != 1 && parts.size() != names.size()) throw_size_error(task, text, "");
    std::vector<int64_t> values;
    for (const auto& part : parts) values.push_back(parse_size_value(task, text, part));
    // One value stands for every size (a square matmul, a square image).
    if (values.size() == 1) values.assign(names.size(), values[0]);
    return values;
}

std::string size_values_text(const std::vector<int64_t>& values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

NamedValues size_values(const TaskSpec& task, const std::vector<int64_t>& values) {
    const auto& names = task.sizes.names;
    if (values.size() != names.size())
        throw InputError("task '" + task.name + "' has " + std::to_string(names.size()) + " sizes (" + join(names) + "), but " +
                         std::to_string(values.size()) + " values were given");
    NamedValues named;
    for (size_t i = 0; i < names.size(); ++i) named[names[i]] = values[i];
    for (const auto& [name, expression] : task.sizes.derived) {
        try {
            named[name] = evaluate_int_expr(expression, named);
        } catch (const InputError& error) {
            throw InputError("task '" + task.name + "' derives " + name + " = '" + expression + "': " + error.what());
        }
    }
    return named;
}

}  // namespace kplay
