// Parser for compute-sanitizer's memcheck report:
//
//   ========= Invalid __global__ write of size 1 bytes                       a finding: one space after the bar
//   =========     at oob_write(unsigned char *, unsigned char *, int)+0x120 in 01_out_of_bounds_write.cu:12
//   =========     by thread (96,0,0) in block (8,0,0)                        details: more spaces
//   =========     Access to 0x7ff5a0e00860 is out of bounds
//   =========     and is 16,947,086,945 bytes after the nearest allocation at 0x7ff1aec00000 of size 512 bytes
//   ========= Error: process didn't terminate successfully
//   ========= ERROR SUMMARY: 89696 errors
//
// The program's own output is interleaved without the bar; a device assert() prints its line there.
#include "inspect/sanitizer_report.hpp"

#include <cstdint>
#include <iterator>
#include <string_view>
#include <vector>

#include "base/enum_names.hpp"
#include "base/text.hpp"
#include "inspect/sanitizer_text.hpp"

namespace kplay {

namespace {

using namespace detail;

constexpr std::string_view kBar = kSanitizerBar;

// "Invalid __global__ write of size 1 bytes": the memory space, the access and its size.
void read_kind(SanitizerFinding& finding) {
    std::string_view kind = finding.kind;
    if (eat(kind, "Invalid __") || eat(kind, "Uninitialized __")) {
        const size_t space_end = kind.find("__");
        if (space_end != std::string_view::npos) {
            finding.space = std::string(kind.substr(0, space_end));
            kind.remove_prefix(space_end + 2);
            skip_spaces(kind);
            eat(kind, "memory ");  // initcheck: "Uninitialized __global__ memory read of size 4 bytes"
            const std::string_view word = kind.substr(0, kind.find(' '));
            if (word == "read" || word == "write" || word == "atomic") finding.access = std::string(word);
        }
    }
    const size_t size_at = finding.kind.find(" of size ");
    if (size_at != std::string::npos) {
        std::string_view size = std::string_view(finding.kind).substr(size_at + 9);
        read_int(size, finding.access_size);
    }
}

void read_location(std::string_view at, SanitizerFinding& finding) {
    detail::CodeLocation location = detail::read_code_location(at);
    finding.function = std::move(location.function);
    finding.file = std::move(location.file);
    finding.line = location.line;
}

// "and is 16,947,086,945 bytes after the nearest allocation at 0x... of size 512 bytes" or
// "and is inside the nearest allocation at 0x... of size 4,194,304 bytes".
void read_allocation(std::string_view text, SanitizerFinding& finding) {
    finding.nearest_allocation = std::string(text);
    std::string_view rest = text;
    if (!eat(rest, "and is ")) return;
    if (eat(rest, "inside ")) {
        finding.allocation_side = "inside";
    } else {
        int64_t distance = 0;
        if (!read_number(rest, distance)) return;
        skip_spaces(rest);
        if (!eat(rest, "bytes ") && !eat(rest, "byte ")) return;
        if (eat(rest, "after ")) finding.allocation_side = "after";
        else if (eat(rest, "before ")) finding.allocation_side = "before";
        else return;
        finding.allocation_distance = distance;
    }
    const size_t size_at = rest.find(" of size ");
    if (size_at == std::string_view::npos) return;
    std::string_view size = rest.substr(size_at + 9);
    int64_t bytes = 0;
    if (read_number(size, bytes)) finding.allocation_size = bytes;
}

void read_detail(std::string_view detail, SanitizerFinding& finding) {
    std::string_view rest = detail;
    if (eat(rest, "at ")) {
        read_location(rest, finding);
    } else if (eat(rest, "by thread ")) {
        std::array<int, 3> thread{}, block{};
        if (!read_triple(rest, '(', ')', thread)) return;
        if (!eat(rest, " in block ") || !read_triple(rest, '(', ')', block)) return;
        finding.thread = thread;
        finding.block = block;
        finding.has_thread = true;
    } else if (eat(rest, "Access to ") || eat(rest, "Address ")) {
        const size_t space = rest.find(' ');
        finding.address = std::string(rest.substr(0, space));
        if (space != std::string_view::npos) finding.problem = trim(rest.substr(space + 1));
    } else if (rest.starts_with("and is ")) {
        read_allocation(rest, finding);
    }
}

// "FILE:13: void f(...): block: [1333,0,0], thread: [85,0,0] Assertion `i != n / 3` failed."
std::optional<DeviceAssertion> read_assertion(std::string_view line) {
    const size_t assertion_at = line.find(" Assertion `");
    if (assertion_at == std::string_view::npos) return std::nullopt;
    const size_t failed_at = line.rfind("` failed");
    if (failed_at == std::string_view::npos || failed_at < assertion_at + 12) return std::nullopt;
    const size_t block_at = line.rfind(": block: ", assertion_at);
    if (block_at == std::string_view::npos) return std::nullopt;
    DeviceAssertion assertion;
    assertion.condition = std::string(line.substr(assertion_at + 12, failed_at - assertion_at - 12));
    std::string_view ids = line.substr(block_at + 9, assertion_at - block_at - 9);
    if (!read_triple(ids, '[', ']', assertion.block) || !eat(ids, ", thread: ") ||
        !read_triple(ids, '[', ']', assertion.thread))
        return std::nullopt;
    // The first ":LINE: " splits the file from the function, whose name may hold "::".
    const std::string_view where = line.substr(0, block_at);
    for (size_t colon = where.find(':'); colon != std::string_view::npos; colon = where.find(':', colon + 1)) {
        std::string_view digits = where.substr(colon + 1);
        int number = 0;
        if (read_int(digits, number) && eat(digits, ": ")) {
            assertion.file = std::string(where.substr(0, colon));
            assertion.line = number;
            assertion.function = trim(digits);
            return assertion;
        }
    }
    return std::nullopt;
}

std::string human_bytes(int64_t bytes) {
    if (bytes < 1000) return std::to_string(bytes) + " B";
    static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double value = static_cast<double>(bytes) / 1000;
    size_t unit = 0;
    // 999.5 would print as "1e+03" with three significant digits.
    while (value >= 999.5 && unit + 1 < std::size(kUnits)) {
        value /= 1000;
        ++unit;
    }
    return short_number(value) + " " + kUnits[unit];
}


constexpr EnumNames<SanitizerTool, 4> kToolNames{{{SanitizerTool::memcheck, "memcheck"},
                                                 {SanitizerTool::racecheck, "racecheck"},
                                                 {SanitizerTool::synccheck, "synccheck"},
                                                 {SanitizerTool::initcheck, "initcheck"}}};

// racecheck's own records ("Error: Potential RAW hazard ...", "Warning: Race reported ...") are read by
// race_report; here they are neither tool errors nor findings.
bool is_race_record(std::string_view top) {
    return top.find("hazard detected at __") != std::string_view::npos || top.find("Race reported between") != std::string_view::npos ||
           top.starts_with("RACECHECK SUMMARY");
}

}  // namespace

std::string_view name_of(SanitizerTool tool) { return enum_name(kToolNames, tool); }
std::optional<SanitizerTool> parse_sanitizer_tool(std::string_view name) { return enum_value(kToolNames, name); }
std::string sanitizer_tool_names() { return enum_name_list(kToolNames); }

bool is_known_finding(const SanitizerFinding& finding, SanitizerTool tool) {
    const std::string_view kind = finding.kind;
    switch (tool) {
        case SanitizerTool::memcheck: return kind.starts_with("Invalid __") || kind.find("trap") != std::string_view::npos ||
                                             kind.starts_with("Misaligned") || kind.starts_with("Out-of-range") || kind.starts_with("Malloc/Free");
        case SanitizerTool::synccheck: return kind.starts_with("Barrier error detected");
        case SanitizerTool::initcheck: return kind.starts_with("Uninitialized __");
        case SanitizerTool::racecheck: return false;  // racecheck's records are not findings
    }
    return false;
}

SanitizerReport parse_sanitizer_output(const std::string& text, SanitizerTool tool) {
    SanitizerReport report;
    report.tool = tool;
    if (tool == SanitizerTool::racecheck) {
        report.races = parse_racecheck_output(text);
        if (report.races.errors >= 0) report.error_count = static_cast<int>(report.races.errors + report.races.warnings);
        else if (report.races.displayed >= 0) report.error_count = static_cast<int>(report.races.displayed);
    }
    std::vector<std::string> tool_errors;
    bool in_first = false;
    for (std::string_view line : split_lines(text)) {
        if (!line.starts_with(kBar)) {
            if (!report.assertion) report.assertion = read_assertion(line);
            continue;
        }
        line.remove_prefix(kBar.size());
        size_t indent = 0;
        while (indent < line.size() && line[indent] == ' ') ++indent;
        const std::string body = trim(line);
        if (body.empty()) {
            in_first = false;
            continue;
        }
        if (indent > 1) {
            if (in_first) read_detail(body, *report.first);
            continue;
        }
        in_first = false;
        std::string_view top = body;
        if (tool == SanitizerTool::racecheck && is_race_record(top)) continue;
        if (eat(top, "ERROR SUMMARY: ")) {
            // The second summary line ("N errors were not printed") is not the count.
            int64_t count = 0;
            if (report.error_count < 0 && read_number(top, count, INT32_MAX) && (top == " error" || top == " errors"))
                report.error_count = static_cast<int>(count);
        } else if (eat(top, "Error: ") || eat(top, "Internal Sanitizer Error: ")) {
            tool_errors.push_back(trim(top));
        } else if (top.starts_with("COMPUTE-SANITIZER") || top.starts_with("Target application") ||
                   top.starts_with("Program hit ") || top.starts_with("Warning: ") ||
                   top.starts_with("Saved host backtrace") || top.starts_with("LEAK SUMMARY")) {
            continue;  // banners, API errors (not a kernel's finding), notices
        } else if (!report.first) {
            report.first = SanitizerFinding{};
            report.first->kind = body;
            read_kind(*report.first);
            in_first = true;
        }
    }
    report.tool_error = join(tool_errors, "; ");
    return report;
}

std::string describe_finding(const SanitizerFinding& finding) {
    std::string text = finding.has_thread ? "thread " + triple_text(finding.thread) + " of block " + triple_text(finding.block)
                                          : std::string("a thread");
    const std::string size = finding.access_size == 1 ? "1 byte" : std::to_string(finding.access_size) + " bytes";
    if (finding.access == "write") text += " wrote " + size;
    else if (finding.access == "read") text += " read " + size;
    else if (finding.access == "atomic") text += " did a " + std::to_string(finding.access_size) + "-byte atomic";
    else if (std::string_view kind = finding.kind; eat(kind, "Barrier error detected.")) text += " reached a barrier wrongly (" + trim(kind) + ")";
    else text += ": " + (finding.kind.empty() ? std::string("an error") : finding.kind);
    if (finding.kind.starts_with("Uninitialized __")) text += " of " + finding.space + " memory that nothing had written";

    if (finding.problem == "is out of bounds") text += " out of bounds";
    else if (finding.problem == "is misaligned") text += " at a misaligned address";
    else if (!finding.problem.empty()) text += " (" + finding.problem + ")";

    const std::string name = trim(std::string_view(finding.function).substr(0, finding.function.find('(')));
    if (finding.line > 0) {
        text += " at line " + std::to_string(finding.line);
        if (!name.empty()) text += " (" + name + ")";
    } else if (!name.empty()) {
        text += " in " + name;
    }

    if ((finding.allocation_side == "after" || finding.allocation_side == "before") && finding.allocation_distance >= 0) {
        text += ", " + human_bytes(finding.allocation_distance) + " " + finding.allocation_side + " the nearest allocation";
        if (finding.allocation_size >= 0) text += " (" + human_bytes(finding.allocation_size) + ")";
    } else if (finding.allocation_side == "inside" && finding.allocation_size >= 0) {
        text += ", inside an allocation of " + human_bytes(finding.allocation_size);
    }
    return text;
}

}  // namespace kplay
