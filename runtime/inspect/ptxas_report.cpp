// Parser for ptxas -v as NVRTC relays it:
//
//   ptxas info    : Overriding maximum register limit 256 for '_Z1fPf' with  32 of maxrregcount option
//   ptxas info    : 12 bytes gmem
//   ptxas info    : Compiling entry function '_Z1fPf' for 'sm_90'
//   ptxas info    : Function properties for _Z1fPf
//   ptxas         .     400 bytes stack frame, 768 bytes spill stores, 772 bytes spill loads
//   ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem, 400 bytes cumulative stack size
//   ptxas info    : Compile time = 10.996 ms
//
// The "." line belongs to the last "Function properties for" name; the "Used" line to the last compiled
// function, because a callee's "Function properties" block can sit between the two.
#include "inspect/ptxas_report.hpp"

#include <climits>
#include <string_view>

#include "base/text.hpp"

namespace kplay {

namespace {


bool ends_with(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Leading decimal digits (thousands separators allowed) as an int; false when none or too big.
bool read_int(std::string_view& text, int& value) {
    long long number = 0;
    size_t i = 0;
    bool any = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ',' && any && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') continue;
        if (c < '0' || c > '9') break;
        number = number * 10 + (c - '0');
        any = true;
        if (number > INT_MAX) return false;
    }
    if (!any) return false;
    value = static_cast<int>(number);
    text.remove_prefix(i);
    return true;
}

// The text between the first pair of single quotes after `from`, or empty when unclosed.
std::string_view quoted(std::string_view text, size_t from = 0) {
    const size_t open = text.find('\'', from);
    if (open == std::string_view::npos) return {};
    const size_t close = text.find('\'', open + 1);
    if (close == std::string_view::npos) return {};
    return text.substr(open + 1, close - open - 1);
}

// Index, not a pointer: functions grows while we read.
int index_of(PtxasReport& report, std::string_view name) {
    for (size_t i = 0; i < report.functions.size(); ++i)
        if (report.functions[i].function == name) return static_cast<int>(i);
    report.functions.push_back({});
    report.functions.back().function = std::string(name);
    return static_cast<int>(report.functions.size() - 1);
}

// One comma-separated item such as "used 1 barriers", "2048 bytes smem", "380 bytes cmem[0]".
void apply_item(std::string_view item, PtxasResources& resources, bool& saw_registers) {
    const std::string trimmed = trim(item);
    std::string_view rest = trimmed;
    if (rest.starts_with("Used ")) rest.remove_prefix(5);
    else if (rest.starts_with("used ")) rest.remove_prefix(5);
    int value = 0;
    if (!read_int(rest, value)) return;
    const std::string unit = trim(rest);
    if (unit == "registers") {
        resources.registers = value;
        saw_registers = true;
    } else if (unit == "barriers") {
        resources.barriers = value;
    } else if (unit == "bytes smem") {
        resources.static_smem_bytes = value;
    } else if (unit == "bytes cmem[0]") {
        resources.const_bytes = value;
    } else if (unit == "bytes stack frame") {
        resources.stack_frame_bytes = value;
    } else if (unit == "bytes cumulative stack size") {
        resources.cumulative_stack_bytes = value;
    } else if (unit == "bytes spill stores") {
        resources.spill_store_bytes = value;
    } else if (unit == "bytes spill loads") {
        resources.spill_load_bytes = value;
    }
}

void apply_items(std::string_view list, PtxasResources& resources, bool& saw_registers) {
    size_t start = 0;
    while (start <= list.size()) {
        size_t comma = list.find(", ", start);
        if (comma == std::string_view::npos) comma = list.size();
        apply_item(list.substr(start, comma - start), resources, saw_registers);
        start = comma + 2;
    }
}

}  // namespace

const PtxasResources* PtxasReport::find(const std::string& mangled) const {
    for (const auto& function : functions)
        if (function.function == mangled) return &function;
    return nullptr;
}

PtxasReport parse_ptxas_report(const std::string& nvrtc_log) {
    PtxasReport report;
    int compiled = -1, described = -1;
    for (std::string_view line : split_lines(nvrtc_log)) {
        if (!line.starts_with("ptxas")) continue;
        line.remove_prefix(5);
        const size_t word_start = line.find_first_not_of(' ');
        if (word_start == std::string_view::npos) continue;
        line.remove_prefix(word_start);

        if (line.starts_with(".")) {  // continuation of a "Function properties" block
            if (described >= 0) {
                bool ignored = false;
                apply_items(line.substr(1), report.functions[static_cast<size_t>(described)], ignored);
            }
            continue;
        }
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string kind = trim(line.substr(0, colon));
        const std::string body = trim(line.substr(colon + 1));
        if (kind != "info") {
            if (!body.empty() && (kind == "warning" || kind == "error" || kind == "fatal"))
                report.notes.push_back(kind + ": " + body);
            continue;
        }
        const std::string_view text = body;
        if (text.starts_with("Compiling entry function ") || text.starts_with("Compiling function ")) {
            const std::string_view name = quoted(text);
            if (name.empty()) continue;
            compiled = index_of(report, name);
            const size_t for_arch = text.find(" for '");
            if (for_arch != std::string_view::npos) {
                const std::string_view arch = quoted(text, for_arch);
                if (!arch.empty()) report.arch = std::string(arch);
            }
        } else if (text.starts_with("Function properties for ")) {
            const std::string name = trim(text.substr(24));
            if (!name.empty()) described = index_of(report, name);
        } else if (text.starts_with("Used ")) {
            const int target = compiled >= 0 ? compiled : described;
            if (target < 0) continue;
            auto& resources = report.functions[static_cast<size_t>(target)];
            bool saw_registers = false;
            apply_items(text, resources, saw_registers);
            if (saw_registers) resources.found = true;
        } else if (ends_with(text, "bytes gmem") || text.find(" bytes gmem,") != std::string_view::npos) {
            std::string_view number = text;
            int value = 0;
            if (read_int(number, value)) report.gmem_bytes = value;
        } else if (text.starts_with("Compile time")) {
            continue;  // timing is noise next to the resources
        } else if (!text.empty()) {
            report.notes.push_back(body);
        }
    }
    return report;
}

}  // namespace kplay
