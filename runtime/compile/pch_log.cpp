// Finding and removing NVRTC's -pch lines in a program log (pch_log.hpp shows them).
#include "compile/pch_log.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "base/text.hpp"

namespace kplay {

namespace {

bool contains(std::string_view line, std::string_view part) { return line.find(part) != std::string_view::npos; }

bool is_pch_note(std::string_view line, std::string_view verb) {
    return contains(line, std::string(": ") + std::string(verb) + " precompiled header file \"");
}

bool is_not_compatible(std::string_view line) {
    return line.substr(0, 15) == "Warning #630-D:" && contains(line, "precompiled header file");
}

}  // namespace

PchUse take_pch_lines(std::string& log) {
    PchUse use = PchUse::none;
    bool dropped_warning = false;
    std::vector<std::string_view> kept;
    for (const std::string_view line : split_lines(log)) {
        std::string_view bare = line;
        if (!bare.empty() && bare.back() == '\r') bare.remove_suffix(1);
        if (is_pch_note(bare, "using")) use = PchUse::used;
        else if (is_pch_note(bare, "creating")) use = use == PchUse::none ? PchUse::created : use;
        else if (is_not_compatible(bare)) dropped_warning = true;
        else kept.push_back(line);
    }
    if (use == PchUse::none && !dropped_warning) return use;
    // NVRTC's hint after a log's warnings: with the 630-D gone it may speak of none.
    const bool other_warning = std::any_of(kept.begin(), kept.end(), [](std::string_view line) {
        return contains(line, "warning #") || contains(line, "Warning #") || line.rfind("ptxas warning", 0) == 0;
    });
    std::string tidy;
    bool blank = true;  // no blank line leads, none doubles where a removed line stood
    for (const std::string_view line : kept) {
        if (dropped_warning && !other_warning && line.rfind("Remark: The warnings can be suppressed with", 0) == 0) continue;
        const bool empty = line.find_first_not_of("\r") == std::string_view::npos;
        if (empty && blank) continue;
        blank = empty;
        tidy.append(line).push_back('\n');
    }
    while (!tidy.empty() && (tidy.back() == '\n' || tidy.back() == '\r')) tidy.pop_back();
    if (!tidy.empty()) tidy.push_back('\n');
    log = std::move(tidy);
    return use;
}

}  // namespace kplay
