// A sweep's search space read from text (--param, --restrict, kplay-sweep lines), settled against the
// spec, and walked point by point; pure, so the window and kplay-cli read a sweep the same way.
#include "sweep/sweep_space.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

enum class IntParse { ok, not_integer, too_large };

// Decimal with an optional leading '-', nothing else (no '+', no spaces, no hex): the values end up in
// expressions, labels and the annotation, where only this form reads back as the same number.
IntParse parse_integer(std::string_view text, int64_t& out) {
    size_t at = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) at = 1;
    if (at == text.size()) return IntParse::not_integer;
    int64_t value = 0;
    bool too_large = false;
    for (; at < text.size(); ++at) {
        const char c = text[at];
        if (c < '0' || c > '9') return IntParse::not_integer;
        // Accumulated negatively when negative, so INT64_MIN parses.
        const int digit = c - '0';
        if (__builtin_mul_overflow(value, int64_t{10}, &value) ||
            (negative ? __builtin_sub_overflow(value, int64_t{digit}, &value)
                      : __builtin_add_overflow(value, int64_t{digit}, &value)))
            too_large = true;
    }
    if (too_large) return IntParse::too_large;
    out = value;
    return IntParse::ok;
}

bool is_name(std::string_view text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool has_space(std::string_view text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

bool is_block_axis(std::string_view name) { return name == "block_x" || name == "block_y" || name == "block_z"; }

void remove_repeats(std::vector<std::string>& values) {
    std::unordered_set<std::string> seen;
    std::vector<std::string> kept;
    for (auto& value : values)
        if (seen.insert(value).second) kept.push_back(std::move(value));
    values = std::move(kept);
}

// A parameter as messages quote it: a list of thousands of values is cut, not repeated in full.
std::string quote_cut(const std::string& text) {
    constexpr size_t kLongest = 60;
    return "'" + (text.size() <= kLongest ? text : text.substr(0, kLongest - 3) + "...") + "'";
}

// The integer of a value, or InputError saying why not, prefixed with the parameter's `at`.
int64_t integer_value(const std::string& at, const std::string& value, const std::string& why_integer) {
    int64_t number = 0;
    switch (parse_integer(value, number)) {
        case IntParse::ok:
            return number;
        case IntParse::too_large:
            throw InputError(at + quote_cut(value) + " does not fit in 64 bits");
        case IntParse::not_integer:
            break;
    }
    throw InputError(at + quote_cut(value) + " is not an integer" + why_integer);
}

// `block` is what a user types for a 1D kernel's block; `block=32x8` gives x and y at once.
bool is_whole_block(std::string_view name) { return name == "block"; }

// A value of `block`: 1-3 integers of 1 or more, separated by 'x' ("256", "32x8", "8x8x4"), in one spelling.
std::string block_value(const std::string& at, const std::string& value) {
    const std::vector<std::string> parts = split_list(value, 'x');
    if (parts.empty() || parts.size() > 3)
        throw InputError(at + quote_cut(value) + " is not a block: give 1 to 3 integers separated by 'x', e.g. 256 or 32x8");
    std::string text;
    for (const auto& part : parts) {
        const int64_t number = integer_value(at, trim(part), " (block takes X, XxY or XxYxZ, e.g. 256 or 32x8)");
        if (number < 1) throw InputError(at + "a block's extents are 1 or more, not " + trim(part));
        text += (text.empty() ? "" : "x") + std::to_string(number);
    }
    return text;
}

void check_count(const std::string& at, uint64_t count) {
    if (count > kMaxSweepValues)
        throw InputError(at + std::to_string(count) + " values, more than " + std::to_string(kMaxSweepValues) +
                         "; use a larger step or fewer values");
}

// "A..B[ step S]" into its values. Every step is overflow-checked, and the count is known before
// anything is generated, so 0..9223372036854775807 is refused instead of filling memory.
std::vector<std::string> range_values(const std::string& at, const std::string& values) {
    const size_t dots = values.find("..");
    const std::string first_text = trim(std::string_view(values).substr(0, dots));
    const std::string rest = trim(std::string_view(values).substr(dots + 2));
    const size_t end_of_last = std::min(rest.size(), rest.find_first_of(" \t"));
    const std::string last_text = rest.substr(0, end_of_last);
    const std::string tail = trim(std::string_view(rest).substr(end_of_last));
    if (first_text.empty() || last_text.empty()) throw InputError(at + "a range needs both ends, e.g. 32..1024");
    const int64_t first = integer_value(at, first_text, "");
    const int64_t last = integer_value(at, last_text, "");
    bool multiply = false;
    int64_t step = 1;
    if (!tail.empty()) {
        if (tail.compare(0, 4, "step") != 0)
            throw InputError(at + "expected 'step S' after the range, not " + quote_cut(tail));
        std::string step_text = trim(std::string_view(tail).substr(4));
        if (step_text.empty()) throw InputError(at + "'step' needs a value: N or +N to add, *N to multiply");
        if (step_text[0] == '*' || step_text[0] == '+') {
            multiply = step_text[0] == '*';
            step_text = trim(std::string_view(step_text).substr(1));
        }
        step = integer_value(at, step_text, "");
    }
    if (multiply && step < 2)
        throw InputError(at + "the range never moves (step *" + std::to_string(step) + "); multiply by 2 or more");
    if (!multiply && step == 0) throw InputError(at + "the range never moves (step 0); use a step of 1 or more");
    if (!multiply && step < 0)
        throw InputError(at + "the range runs backwards (step " + std::to_string(step) +
                         "); use a positive step and write it low..high");
    if (first > last)
        throw InputError(at + "the range runs backwards (" + first_text + " > " + last_text + "); write it as " +
                         last_text + ".." + first_text);
    if (multiply && first == 0)
        throw InputError(at +
                         "the range never moves (0 multiplied stays 0); start at 1 or more, or add a step (step +N)");
    // A negative start multiplied moves away from the end, however far the end is.
    if (multiply && first < 0)
        throw InputError(at + "the range runs backwards (" + first_text + " multiplied moves away from " + last_text +
                         "); start a multiplying range at 1 or more");

    std::vector<std::string> out;
    if (multiply) {
        // At most 63 doublings fit in 64 bits, so the count cannot pass kMaxSweepValues here.
        for (int64_t value = first;;) {
            out.push_back(std::to_string(value));
            if (__builtin_mul_overflow(value, step, &value) || value > last) break;
        }
    } else {
        // last - first in unsigned arithmetic: exact for any first <= last, even -2^63..2^63-1, whose
        // count (2^64) is the one that does not fit; it is refused like any count past the bound.
        const uint64_t steps =
            (static_cast<uint64_t>(last) - static_cast<uint64_t>(first)) / static_cast<uint64_t>(step);
        if (steps >= kMaxSweepValues)
            throw InputError(
                at + (steps == UINT64_MAX ? std::string("18446744073709551616") : std::to_string(steps + 1)) +
                " values, more than " + std::to_string(kMaxSweepValues) + "; use a larger step or fewer values");
        for (uint64_t i = 0; i <= steps; ++i)
            out.push_back(
                std::to_string(static_cast<int64_t>(static_cast<uint64_t>(first) + i * static_cast<uint64_t>(step))));
    }
    check_count(at, out.size());
    return out;
}

std::string listing(const std::vector<std::string>& names) { return names.empty() ? std::string("none") : join(names); }

const char* kind_words(SweepParamKind kind) {
    switch (kind) {
        case SweepParamKind::block:
            return "a block axis";
        case SweepParamKind::literal:
            return "a literal argument";
        case SweepParamKind::define:
            return "a define";
        case SweepParamKind::size:
            return "a size";
    }
    return "?";
}

std::string value_label(const SweepParam& param, const std::string& value) {
    return (param.kind == SweepParamKind::define ? "-D" : "") + param.name + "=" + value;
}

void check_point(const SweepSpace& space, const SweepPoint& point) {
    if (point.values.size() != space.params.size())
        throw InputError("a sweep point has " + std::to_string(point.values.size()) + " values for " +
                         std::to_string(space.params.size()) +
                         " parameters; take points from point_at of the same space");
}

}  // namespace

const char* sweep_param_kind_name(SweepParamKind kind) {
    switch (kind) {
        case SweepParamKind::block:
            return "block";
        case SweepParamKind::literal:
            return "literal";
        case SweepParamKind::define:
            return "define";
        case SweepParamKind::size:
            return "size";
    }
    return "?";
}

uint64_t SweepSpace::size() const {
    uint64_t product = 1;  // no parameters: one point, the file as it is
    for (const auto& param : params)
        if (__builtin_mul_overflow(product, static_cast<uint64_t>(param.values.size()), &product)) return UINT64_MAX;
    return product;
}

SweepParam parse_sweep_param(std::string_view text) {
    SweepParam param;
    param.text = trim(text);
    const std::string at = "sweep parameter " + quote_cut(param.text) + ": ";
    const size_t equals = param.text.find('=');
    if (equals == std::string::npos)
        throw InputError(at + "expected NAME=VALUES, e.g. tw=8,16,32 or block_x=32..1024 step *2");
    std::string name = trim(std::string_view(param.text).substr(0, equals));
    if (name.compare(0, 2, "-D") == 0) {
        param.written_as_define = true;
        name = trim(std::string_view(name).substr(2));
    }
    if (name.empty()) throw InputError(at + "the name is empty; write NAME=VALUES, e.g. tw=8,16,32");
    if (!is_name(name))
        throw InputError(at + quote_cut(name) + " is not a name (letters, digits and _, not starting with a digit)");
    param.name = name;
    param.kind = param.written_as_define                      ? SweepParamKind::define
                 : is_block_axis(name) || is_whole_block(name) ? SweepParamKind::block
                                                               : SweepParamKind::literal;

    const std::string values = trim(std::string_view(param.text).substr(equals + 1));
    if (values.find("..") != std::string::npos) {
        if (values.find(',') != std::string::npos)
            throw InputError(at + "give either a list (8,16,32) or one range (8..32), not both");
        param.values = range_values(at, values);
        return param;
    }
    // A plain split at ',': split_list would treat '<' as a bracket, and a define's values are words.
    for (const auto& value : split_list(values, ',')) {
        if (has_space(value)) throw InputError(at + quote_cut(value) + " holds a space; separate values with ','");
        // Only a block axis is surely an integer here: a literal's name may turn out to be one of the
        // annotation's defines, so resolve_sweep_params checks the others.
        if (param.kind == SweepParamKind::block && is_whole_block(param.name))
            param.values.push_back(block_value(at, value));
        else if (param.kind == SweepParamKind::block)
            param.values.push_back(
                std::to_string(integer_value(at, value, " (a block axis takes integers, e.g. 32,64,128)")));
        else
            param.values.push_back(value);
    }
    if (param.values.empty()) throw InputError(at + "no values; give a list (8,16,32) or a range (32..1024 step *2)");
    remove_repeats(param.values);
    check_count(at, param.values.size());
    return param;
}

std::optional<SweepSpace> find_sweep_lines(std::string_view source, std::string_view file) {
    // A raw file's byte-order mark would hide a sweep line on line 1 from match_kplay_line.
    if (source.substr(0, 3) == "\xEF\xBB\xBF") source.remove_prefix(3);
    std::optional<SweepSpace> space;
    std::vector<int> param_lines;  // where each of space->params was given
    int number = 0;
    for (const std::string_view line : split_lines(source)) {
        ++number;
        std::string name, rest;
        if (!match_kplay_line(line, name, rest) || name != "sweep") continue;
        const std::string at = std::string(file) + ":" + std::to_string(number) + ": kplay-sweep: ";
        if (!space) {
            space.emplace();
            space->line = number;
        }
        // Split by hand: split_list counts '<' as a bracket, so "restrict a <= 8; tw=8" would stay whole.
        std::vector<std::string> items;
        for (size_t start = 0; start <= rest.size();) {
            const size_t end = std::min(rest.size(), rest.find(';', start));
            if (std::string item = trim(std::string_view(rest).substr(start, end - start)); !item.empty())
                items.push_back(std::move(item));
            start = end + 1;
        }
        if (items.empty())
            throw InputError(at + "nothing to sweep; write NAME=VALUES or restrict EXPR, separated by ';'");
        for (const auto& item : items) {
            const bool restriction = item.compare(0, 8, "restrict") == 0 &&
                                     (item.size() == 8 || std::isspace(static_cast<unsigned char>(item[8])));
            if (restriction) {
                std::string expression = trim(std::string_view(item).substr(8));
                if (expression.empty())
                    throw InputError(at + "'restrict' needs an expression, e.g. restrict tw*tw <= 1024");
                space->restrictions.push_back(std::move(expression));
                continue;
            }
            SweepParam param;
            try {
                param = parse_sweep_param(item);
            } catch (const InputError& error) {
                throw InputError(at + error.what());
            }
            for (size_t i = 0; i < space->params.size(); ++i)
                if (space->params[i].name == param.name)
                    throw InputError(at + param.name + " is given twice (first at line " +
                                     std::to_string(param_lines[i]) +
                                     "); give each parameter once, with all its values");
            space->params.push_back(std::move(param));
            param_lines.push_back(number);
        }
    }
    return space;
}

SweepSpace parse_sweep_text(std::string_view text) {
    // Each line read as a kplay-sweep line would be, so the box and the file take the same items.
    std::string source;
    for (const std::string_view line : split_lines(text))
        source += trim(line).empty() ? std::string("\n") : "// kplay-sweep: " + std::string(line) + "\n";
    try {
        std::optional<SweepSpace> space = find_sweep_lines(source, "box");
        if (!space) return {};
        space->line = 0;
        return std::move(*space);
    } catch (const InputError& error) {
        std::string message = error.what();
        const std::string marker = ": kplay-sweep: ";
        if (message.rfind("box:", 0) == 0 && message.find(marker) != std::string::npos) {
            const size_t colon = message.find(':', 4);
            message = "line " + message.substr(4, colon - 4) + ": " + message.substr(message.find(marker) + marker.size());
        }
        throw InputError(message);
    }
}

std::string sweep_text(const SweepSpace& space) {
    std::string text;
    for (const SweepParam& param : space.params) text += param.text + "\n";
    for (const std::string& restriction : space.restrictions) text += "restrict " + restriction + "\n";
    return text;
}

void resolve_sweep_params(SweepSpace& space, const KernelSpec& spec) {
    std::vector<std::string> literals, defines;
    for (const auto& arg : spec.args) {
        const size_t equals = arg.find('=');
        // "n==0" is an expression, not a literal.
        if (equals == std::string::npos || (equals + 1 < arg.size() && arg[equals + 1] == '=')) continue;
        if (std::string name = trim(std::string_view(arg).substr(0, equals)); is_name(name))
            literals.push_back(std::move(name));
    }
    for (const auto& [name, value] : spec.defines) defines.push_back(name);
    const auto among = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    const std::vector<std::string>& sizes = spec.task.sizes.names;

    for (size_t i = 0; i < space.params.size(); ++i) {
        SweepParam& param = space.params[i];
        const std::string at = "sweep parameter " + quote_cut(param.text) + ": ";
        for (size_t j = 0; j < i; ++j)
            if (space.params[j].name == param.name)
                throw InputError("parameter " + quote_cut(param.name) + " is given twice (" +
                                 quote_cut(space.params[j].text) + " and " + quote_cut(param.text) +
                                 "); give each parameter once, with all its values");
        if (param.written_as_define)
            param.kind = SweepParamKind::define;
        else if (is_whole_block(param.name) && !among(defines, param.name) && !among(literals, param.name))
            param.kind = SweepParamKind::block;
        else if (is_block_axis(param.name))
            param.kind = SweepParamKind::block;
        else if (among(defines, param.name))
            param.kind = SweepParamKind::define;
        else if (among(literals, param.name))
            param.kind = SweepParamKind::literal;
        else if (among(sizes, param.name))
            param.kind = SweepParamKind::size;
        else
            throw InputError("unknown parameter " + quote_cut(param.name) +
                             ": not the block (block, or its axes block_x, block_y, block_z), a literal argument (" +
                             listing(literals) + "), a define (-DNAME=..." +
                             (defines.empty() ? "" : ", " + join(defines)) + ") or a size (" + listing(sizes) + ")");
        if (param.kind == SweepParamKind::define) continue;  // a define's values are text for -D: kept as written
        if (param.kind == SweepParamKind::block && is_whole_block(param.name)) {
            for (const SweepParam& other : space.params)
                if (other.kind == SweepParamKind::block && is_block_axis(other.name))
                    throw InputError("parameters 'block' and " + quote_cut(other.name) + " both set the block; give either " +
                                     "block=X[xY[xZ]] or the axes block_x, block_y, block_z");
            continue;  // its values were checked and spelled once when it was read
        }
        const std::string why =
            std::string(" (") + param.name + " is " + kind_words(param.kind) + ", so its values are integers)";
        for (auto& value : param.values) {
            const int64_t number = integer_value(at, value, why);
            // A block of 0 threads or a size of 0 cannot run; refusing here beats a failed run per point.
            if (number < 1 && (param.kind == SweepParamKind::block || param.kind == SweepParamKind::size))
                throw InputError(at + param.name + " is " + kind_words(param.kind) +
                                 ", so its values are 1 or more, not " + value);
            value = std::to_string(number);  // one spelling per number: "08" and "8" are one value
        }
        remove_repeats(param.values);
    }
}

SweepPoint point_at(const SweepSpace& space, uint64_t index) {
    const uint64_t size = space.size();
    if (index >= size)
        throw InputError("sweep point " + std::to_string(index) + " is past the space's " + std::to_string(size) +
                         " points");
    SweepPoint point;
    point.values.resize(space.params.size());
    for (size_t i = space.params.size(); i-- > 0;) {
        const auto& values = space.params[i].values;
        point.values[i] = values[index % values.size()];
        index /= values.size();
    }
    return point;
}

std::vector<int64_t> block_extents(const std::string& value) {
    std::vector<int64_t> extents;
    for (const auto& part : split_list(value, 'x')) extents.push_back(std::stoll(part));
    return extents;
}

NamedValues point_names(const SweepSpace& space, const SweepPoint& point) {
    check_point(space, point);
    NamedValues names;
    for (size_t i = 0; i < space.params.size(); ++i) {
        const SweepParam& param = space.params[i];
        if (param.kind == SweepParamKind::block && is_whole_block(param.name)) {
            const std::vector<int64_t> block = block_extents(point.values[i]);
            const char* const axes[] = {"block_x", "block_y", "block_z"};
            for (size_t axis = 0; axis < 3; ++axis) names[axes[axis]] = axis < block.size() ? block[axis] : 1;
        } else if (int64_t number = 0; parse_integer(point.values[i], number) == IntParse::ok) {
            names[param.name] = number;
        }
    }
    return names;
}

std::optional<std::string> restriction_broken(const SweepSpace& space, const SweepPoint& point,
                                              const NamedValues& names) {
    // The point's own values win over the caller's, so a swept size is not shadowed by a default size.
    NamedValues all = names;
    for (const auto& [name, value] : point_names(space, point)) all[name] = value;
    for (const auto& restriction : space.restrictions) {
        int64_t holds = 0;
        try {
            holds = evaluate_int_expr(restriction, all);
        } catch (const InputError& error) {
            throw InputError("restriction '" + restriction + "': " + error.what());
        }
        if (holds != 0) continue;
        std::vector<std::string> values;
        for (size_t i = 0; i < space.params.size(); ++i)
            values.push_back(value_label(space.params[i], point.values[i]));
        return "restriction " + restriction + " does not hold (" + join(values) + ")";
    }
    return std::nullopt;
}

std::string point_label(const SweepSpace& space, const SweepPoint& point) {
    check_point(space, point);
    std::vector<std::string> parts;
    for (size_t i = 0; i < space.params.size(); ++i) parts.push_back(value_label(space.params[i], point.values[i]));
    return join(parts, " ");
}

}  // namespace kplay
