// Scanner for nvdisasm's -g/-gi listing: function sections, //## line markers and their inlining chains.
#include "inspect/sass_listing.hpp"

#include "base/text.hpp"

namespace kplay {

namespace {

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Length of a leading `/*0040*/` offset, 0 when the text has none.
size_t offset_length(std::string_view text) {
    if (!text.starts_with("/*")) return 0;
    size_t i = 2;
    while (i < text.size() && is_hex_digit(text[i])) ++i;
    if (i == 2 || text.substr(i, 2) != "*/") return 0;
    return i + 2;
}

// `/* 0x000fc40000000f00 */` alone on a line: the second half of an instruction's encoding (-hex).
bool is_encoding_line(std::string_view text) {
    if (!text.starts_with("/*") || text.size() < 4 || text.substr(text.size() - 2) != "*/") return false;
    const auto inside = trim(text.substr(2, text.size() - 4));
    if (inside.size() < 3 || inside[0] != '0' || (inside[1] != 'x' && inside[1] != 'X')) return false;
    for (size_t i = 2; i < inside.size(); ++i)
        if (!is_hex_digit(inside[i])) return false;
    return true;
}

bool is_label(std::string_view text) {
    return !text.empty() && text.back() == ':' && text.find_first_of(" \t") == std::string_view::npos;
}

// The instruction after its offset and predicate column, e.g. "BRA `(.L_x_2);".
std::string_view opcode_text(std::string_view text) {
    text.remove_prefix(offset_length(text));
    const auto first = text.find_first_not_of(" \t");
    return first == std::string_view::npos ? std::string_view() : text.substr(first);
}

std::string_view first_word(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    text.remove_prefix(first);
    return text.substr(0, text.find_first_of(" \t,"));
}

// `//## File "a", line 5 inlined at "b", line 21 [inlined at ...]`: the chain, innermost first;
// empty when the marker does not parse.
std::vector<ListedLocation> parse_marker(std::string_view text) {
    std::vector<ListedLocation> chain;
    size_t at = 0;
    while (true) {
        const auto open = text.find('"', at);
        if (open == std::string_view::npos) break;
        const auto close = text.find('"', open + 1);
        if (close == std::string_view::npos) break;
        const auto word = text.find("line", close + 1);
        if (word == std::string_view::npos) break;
        size_t used = 0;
        const int line = parse_listed_number(text.substr(word + 4), &used);
        if (line < 0) break;
        chain.push_back({std::string(text.substr(open + 1, close - open - 1)), line});
        at = word + 4 + used;
        const auto inlined = text.find("inlined at", at);
        if (inlined == std::string_view::npos) break;
        at = inlined + 10;
    }
    return chain;
}

bool same_location(const ListedLocation& a, const ListedLocation& b) { return a.file == b.file && a.line == b.line; }

struct FunctionBuilder {
    Listing listing;
    std::vector<bool> after_marker;  // per line: a marker came between the previous instruction and this one

    // nvdisasm pads a function after its last EXIT with `.L_x_N: BRA `(.L_x_N);` and NOPs; they are no
    // line's code, yet the last marker would claim them.
    void unlink_padding() {
        auto& lines = listing.lines;
        int i = static_cast<int>(lines.size()) - 1;
        while (i >= 0 && !lines[i].instruction && is_label(lines[i].text)) --i;  // the function's end label
        auto is_nop = [](std::string_view op) {
            const auto word = first_word(op);
            return word == "NOP;" || word == "NOP";
        };
        while (i >= 0 && lines[i].instruction && is_nop(opcode_text(lines[i].text)) && !after_marker[i]) --i;
        if (i < 1 || !lines[i].instruction || after_marker[i]) return;
        const auto branch = opcode_text(lines[i].text);
        const auto& label = lines[i - 1].text;
        if (!is_label(label)) return;
        const std::string self_loop = "BRA `(" + label.substr(0, label.size() - 1) + ")";
        if (!branch.starts_with(self_loop)) return;
        for (size_t j = static_cast<size_t>(i); j < lines.size(); ++j) {
            if (!lines[j].instruction) continue;
            lines[j].source_line = 0;
            lines[j].origin.clear();
        }
    }
};

}  // namespace

SassModule parse_nvdisasm(const std::string& text, const std::string& kernel_file) {
    SassModule module;
    FunctionBuilder current;
    bool in_function = false;
    std::vector<ListedLocation> chain;
    bool last_was_marker = false;
    bool marker_since_instruction = false;

    auto finish = [&] {
        if (!in_function) return;
        current.unlink_padding();
        module.functions.push_back(std::move(current.listing));
        current = FunctionBuilder{};
        in_function = false;
    };
    auto start = [&](std::string_view name) {
        if (in_function && current.listing.function == name) return;  // the header, then its .section
        finish();
        in_function = true;
        current.listing.function = std::string(name);
        chain.clear();
        last_was_marker = false;
        marker_since_instruction = false;
    };

    for (const auto raw : split_lines(text)) {
        const std::string line = trim(raw);
        const std::string_view view = line;
        if (line.empty()) continue;
        if (view.starts_with(".target")) {
            if (module.arch.empty()) module.arch = std::string(first_word(view.substr(7)));
            continue;
        }
        if (view.starts_with("//--------")) {
            const auto at = view.find(".text.");
            if (at == std::string_view::npos) {
                finish();  // SYMBOLS and the other non-code sections
            } else {
                const auto name = first_word(view.substr(at + 6));
                if (!name.empty()) start(name);
            }
            continue;
        }
        if (view.starts_with(".section")) {
            auto name = first_word(view.substr(8));
            name = name.substr(0, name.find(','));
            if (name.starts_with(".text.") && name.size() > 6) {
                start(name.substr(6));
            } else {
                finish();
            }
            continue;
        }
        if (!in_function) continue;
        if (view.starts_with("//##")) {
            auto marker = parse_marker(view);
            if (last_was_marker && !chain.empty() && !marker.empty() && same_location(marker.front(), chain.back())) {
                chain.insert(chain.end(), marker.begin() + 1, marker.end());
            } else {
                chain = std::move(marker);
            }
            last_was_marker = true;
            marker_since_instruction = true;
            continue;
        }
        if (is_encoding_line(view)) continue;
        last_was_marker = false;

        ListingLine shown;
        shown.text = line;
        const bool instruction = offset_length(view) > 0;
        if (instruction) {
            shown.instruction = true;
            link_to_kernel_file(shown, chain, kernel_file);
        }
        current.listing.lines.push_back(std::move(shown));
        current.after_marker.push_back(instruction && marker_since_instruction);
        if (instruction) marker_since_instruction = false;
    }
    finish();
    return module;
}

const Listing* find_function(const SassModule& module, const std::string& mangled_name) {
    for (const auto& function : module.functions)
        if (function.function == mangled_name) return &function;
    return nullptr;
}

}  // namespace kplay
