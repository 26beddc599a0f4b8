// Scanner for NVRTC's PTX: .file/.loc line info (with inlining), instructions, entry names.
#include "inspect/ptx_listing.hpp"

#include <map>
#include <tuple>

#include "base/text.hpp"

namespace kplay {

namespace {

// An inlining chain deeper than this is a cycle in malformed input, not real code.
constexpr int kMaxInlineDepth = 64;

struct PtxLoc {
    int file = -1, line = -1, column = -1;
    bool operator<(const PtxLoc& other) const {
        return std::tie(file, line, column) < std::tie(other.file, other.line, other.column);
    }
};

struct LocDirective {
    PtxLoc own;
    bool inlined = false;
    PtxLoc inlined_at;
};

// The directive word (".loc") must end at a space so that ".local" is not taken for ".loc".
bool starts_with_word(std::string_view text, std::string_view word) {
    return text.starts_with(word) && (text.size() == word.size() || text[word.size()] == ' ' || text[word.size()] == '\t');
}

std::string_view code_of(std::string_view line) {
    const auto comment = line.find("//");
    if (comment != std::string_view::npos) line = line.substr(0, comment);
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = line.find_last_not_of(" \t");
    return line.substr(first, last - first + 1);
}

// "F L C" at the start of text; the column may be missing.
bool parse_triple(std::string_view text, PtxLoc& loc) {
    size_t used = 0;
    loc.file = parse_listed_number(text, &used);
    if (loc.file < 0) return false;
    text.remove_prefix(used);
    loc.line = parse_listed_number(text, &used);
    if (loc.line < 0) return false;
    text.remove_prefix(used);
    loc.column = parse_listed_number(text, &used);
    if (loc.column < 0) loc.column = 0;
    return true;
}

// `.loc F L C[, function_name $L__info_stringK, inlined_at F2 L2 C2]`; code starts at ".loc".
bool parse_loc(std::string_view code, LocDirective& directive) {
    code.remove_prefix(4);
    if (!parse_triple(code, directive.own)) return false;
    const auto at = code.find("inlined_at");
    if (at != std::string_view::npos)
        directive.inlined = parse_triple(code.substr(at + 10), directive.inlined_at);
    return true;
}

// `.file N "path"[, timestamp, size]`; code starts at ".file".
bool parse_file(std::string_view code, int& number, std::string& path) {
    code.remove_prefix(5);
    size_t used = 0;
    number = parse_listed_number(code, &used);
    if (number < 0) return false;
    const auto open = code.find('"', used);
    if (open == std::string_view::npos) return false;
    const auto close = code.find('"', open + 1);
    if (close == std::string_view::npos) return false;
    path = std::string(code.substr(open + 1, close - open - 1));
    return true;
}

bool is_debug_section(std::string_view code) {
    if (!starts_with_word(code, ".section")) return false;
    const auto name = trim(code.substr(8));
    return name.starts_with(".debug");
}

bool is_function_header(std::string_view code) {
    for (std::string_view word : {".entry", ".func"}) {
        for (size_t at = code.find(word); at != std::string_view::npos; at = code.find(word, at + 1)) {
            const bool starts = at == 0 || code[at - 1] == ' ' || code[at - 1] == '\t';
            const size_t end = at + word.size();
            const bool ends = end == code.size() || code[end] == ' ' || code[end] == '\t' || code[end] == '(';
            if (starts && ends) return true;
        }
    }
    return false;
}

bool is_label(std::string_view code) {
    return !code.empty() && code.back() == ':' && code.find_first_of(" \t") == std::string_view::npos;
}

bool starts_instruction(std::string_view code) {
    if (code.empty() || is_label(code)) return false;
    return (code[0] >= 'a' && code[0] <= 'z') || code[0] == '@';
}

// Lines that are only the skipped debug blocks, .loc and .file; the others are shown.
struct SectionSkipper {
    enum class State { outside, before_brace, inside } state = State::outside;
    int depth = 0;

    // True when this line belongs to a debug section and is dropped.
    bool skip(std::string_view code) {
        if (state == State::outside) {
            if (!is_debug_section(code)) return false;
            state = State::before_brace;
            count(code);
            return true;
        }
        if (state == State::before_brace && !code.empty() && code[0] != '{') {
            state = State::outside;  // a .section without a block: only its own line goes
            return skip(code);
        }
        count(code);
        return true;
    }

    void count(std::string_view code) {
        for (char c : code) {
            if (c == '{') {
                ++depth;
                state = State::inside;
            } else if (c == '}' && depth > 0) {
                --depth;
            }
        }
        if (state == State::inside && depth == 0) state = State::outside;
    }
};

}  // namespace

Listing parse_ptx(const std::string& ptx, const std::string& kernel_file) {
    Listing listing;
    const auto lines = split_lines(ptx);

    // The .file table comes after the code, and an inlined_at site's own inlining may be stated anywhere.
    std::map<int, std::string> files;
    std::map<PtxLoc, PtxLoc> inlined_anywhere;
    for (const auto line : lines) {
        const auto code = code_of(line);
        if (starts_with_word(code, ".file")) {
            int number = 0;
            std::string path;
            // From the whole line: a path may hold "//" ("/work//k.cu"), which code_of takes for a comment.
            if (parse_file(trim(line), number, path)) files.emplace(number, std::move(path));
        } else if (starts_with_word(code, ".loc")) {
            LocDirective directive;
            if (parse_loc(code, directive) && directive.inlined) inlined_anywhere.emplace(directive.own, directive.inlined_at);
        }
    }
    auto listed = [&](const PtxLoc& loc) {
        const auto file = files.find(loc.file);
        return ListedLocation{file == files.end() ? std::string() : file->second, loc.line};
    };

    std::map<PtxLoc, PtxLoc> inlined_recently;
    std::vector<ListedLocation> chain;  // of the current .loc; empty: none
    SectionSkipper sections;
    int depth = 0;
    bool in_statement = false;
    ListingLine statement_line;  // the link a continuation line copies
    for (const auto line : lines) {
        const auto code = code_of(line);
        if (sections.skip(code)) continue;
        if (starts_with_word(code, ".file")) continue;
        if (starts_with_word(code, ".loc")) {
            LocDirective directive;
            chain.clear();
            if (!parse_loc(code, directive)) continue;
            chain.push_back(listed(directive.own));
            if (directive.inlined) {
                inlined_recently[directive.own] = directive.inlined_at;
                PtxLoc site = directive.inlined_at;
                for (int step = 0; step < kMaxInlineDepth; ++step) {
                    chain.push_back(listed(site));
                    if (const auto recent = inlined_recently.find(site); recent != inlined_recently.end()) {
                        site = recent->second;
                    } else if (const auto anywhere = inlined_anywhere.find(site); anywhere != inlined_anywhere.end()) {
                        site = anywhere->second;
                    } else {
                        break;
                    }
                }
            }
            continue;
        }

        ListingLine shown;
        shown.text = trim(line);
        if (in_statement) {
            // A statement split over lines ends at its ';'; a brace, directive or label means it was malformed.
            if (code == "{" || code == "}" || (!code.empty() && code[0] == '.') || is_label(code)) {
                in_statement = false;
            } else {
                shown.source_line = statement_line.source_line;
                shown.origin = statement_line.origin;
                if (!code.empty() && code.back() == ';') in_statement = false;
                listing.lines.push_back(std::move(shown));
                continue;
            }
        }
        if (code == "{") {
            ++depth;
        } else if (code == "}") {
            if (depth > 0) --depth;
            if (depth == 0) chain.clear();
        } else if (is_function_header(code)) {
            chain.clear();
            depth = 0;
        } else if (depth > 0 && starts_instruction(code)) {
            shown.instruction = true;
            link_to_kernel_file(shown, chain, kernel_file);
            if (code.back() != ';') {
                in_statement = true;
                statement_line = shown;
            }
        }
        listing.lines.push_back(std::move(shown));
    }
    return listing;
}

}  // namespace kplay
