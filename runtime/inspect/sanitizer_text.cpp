// The shared readers of compute-sanitizer's text.
#include "inspect/sanitizer_text.hpp"

#include "base/text.hpp"

namespace kplay::detail {

bool read_number(std::string_view& text, int64_t& value, int64_t limit, bool separators) {
    int64_t number = 0;
    size_t i = 0;
    bool any = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (separators && c == ',' && any && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') continue;
        if (c < '0' || c > '9') break;
        number = number * 10 + (c - '0');
        any = true;
        if (number > limit) return false;
    }
    if (!any) return false;
    value = number;
    text.remove_prefix(i);
    return true;
}

bool read_int(std::string_view& text, int& value) {
    int64_t number = 0;
    if (!read_number(text, number, INT32_MAX, false)) return false;
    value = static_cast<int>(number);
    return true;
}

void skip_spaces(std::string_view& text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
}

bool eat(std::string_view& text, std::string_view prefix) {
    if (!text.starts_with(prefix)) return false;
    text.remove_prefix(prefix.size());
    return true;
}

bool read_triple(std::string_view& text, char open, char close, std::array<int, 3>& out) {
    std::string_view rest = text;
    if (!eat(rest, std::string_view(&open, 1))) return false;
    std::array<int, 3> values{};
    for (size_t i = 0; i < 3; ++i) {
        skip_spaces(rest);
        if (!read_int(rest, values[i])) return false;
        skip_spaces(rest);
        if (!eat(rest, i < 2 ? std::string_view(",") : std::string_view(&close, 1))) return false;
    }
    out = values;
    text = rest;
    return true;
}

std::string triple_text(const std::array<int, 3>& values) {
    return "(" + std::to_string(values[0]) + "," + std::to_string(values[1]) + "," + std::to_string(values[2]) + ")";
}

namespace {

// "FILE:LINE" (the last colon: a path may hold none, a Windows drive one more).
void split_file_line(std::string_view where, CodeLocation& location) {
    const size_t colon = where.rfind(':');
    std::string_view digits = colon == std::string_view::npos ? std::string_view{} : where.substr(colon + 1);
    int line = 0;
    if (!digits.empty() && read_int(digits, line) && digits.empty()) {
        location.file = std::string(where.substr(0, colon));
        location.line = line;
    } else {
        location.file = std::string(where);
    }
}

// The older form, "0x120 in /path/file.cu:12:oob_write(...)": the function follows the line number.
CodeLocation read_pc_first(std::string_view at) {
    CodeLocation location;
    const size_t in = at.find(" in ");
    location.pc = std::string(at.substr(0, at.find(' ')));
    if (in == std::string_view::npos) return location;
    std::string_view rest = at.substr(in + 4);
    size_t search = 0;
    while ((search = rest.find(':', search)) != std::string_view::npos) {
        std::string_view digits = rest.substr(search + 1);
        int line = 0;
        if (read_int(digits, line) && digits.starts_with(":")) {
            location.file = std::string(rest.substr(0, search));
            location.line = line;
            location.function = std::string(digits.substr(1));
            return location;
        }
        ++search;
    }
    split_file_line(rest, location);
    return location;
}

}  // namespace

CodeLocation read_code_location(std::string_view text) {
    const std::string trimmed = trim(text);
    const std::string_view at = trimmed;
    if (at.starts_with("0x")) return read_pc_first(at);
    CodeLocation location;
    const size_t in = at.rfind(" in ");
    std::string_view function = in == std::string_view::npos ? at : at.substr(0, in);
    const size_t offset = function.rfind("+0x");
    if (offset != std::string_view::npos) {
        location.pc = std::string(function.substr(offset + 1));
        function = function.substr(0, offset);
    }
    location.function = trim(function);
    if (in != std::string_view::npos) split_file_line(trim(at.substr(in + 4)), location);
    return location;
}

}  // namespace kplay::detail
