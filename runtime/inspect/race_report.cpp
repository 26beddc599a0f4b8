// Parser for compute-sanitizer racecheck's text. Lines are told apart by their words, not their indent:
// the documentation's samples and real logs indent the detail lines differently.
#include "inspect/race_report.hpp"

#include "base/enum_names.hpp"
#include "base/text.hpp"
#include "inspect/sanitizer_text.hpp"

namespace kplay {

namespace {

using namespace detail;

constexpr EnumNames<Hazard, 3> kHazardNames{{{Hazard::raw, "RAW"}, {Hazard::war, "WAR"}, {Hazard::waw, "WAW"}}};
constexpr EnumNames<RaceSeverity, 3> kSeverityNames{
    {{RaceSeverity::info, "info"}, {RaceSeverity::warning, "warning"}, {RaceSeverity::error, "error"}}};

// "Error: ", "WARN:(Warp Level Programming) ", ...: the severity, and the text after it.
std::optional<RaceSeverity> read_severity(std::string_view& text) {
    static constexpr std::pair<std::string_view, RaceSeverity> kWords[] = {
        {"Error:", RaceSeverity::error},   {"ERROR:", RaceSeverity::error}, {"Warning:", RaceSeverity::warning},
        {"WARNING:", RaceSeverity::warning}, {"WARN:", RaceSeverity::warning}, {"Info:", RaceSeverity::info},
        {"INFO:", RaceSeverity::info}};
    for (const auto& [word, severity] : kWords) {
        std::string_view rest = text;
        if (!eat(rest, word)) continue;
        skip_spaces(rest);
        if (eat(rest, "(")) {  // "(Warp Level Programming)"
            const size_t close = rest.find(')');
            if (close == std::string_view::npos) return std::nullopt;
            rest.remove_prefix(close + 1);
            skip_spaces(rest);
        }
        text = rest;
        return severity;
    }
    return std::nullopt;
}

bool read_access_word(std::string_view& text, bool& write) {
    if (eat(text, "Write ")) write = true;
    else if (eat(text, "Read ")) write = false;
    else return false;
    return true;
}

void place(RacecheckAccess& access, std::string_view at) {
    CodeLocation location = read_code_location(at);
    access.function = std::move(location.function);
    access.pc = std::move(location.pc);
    access.file = std::move(location.file);
    access.line = location.line;
}

// "Potential RAW hazard detected at __shared__ 0x8 in block (0,0,0) :"
std::optional<RaceHazard> read_hazard_head(std::string_view text, RaceSeverity severity) {
    RaceHazard hazard;
    hazard.severity = severity;
    if (!eat(text, "Potential ")) return std::nullopt;
    const auto kind = enum_value(kHazardNames, text.substr(0, 3));
    if (!kind || !eat(text, text.substr(0, 3)) || !eat(text, " hazard detected at __")) return std::nullopt;
    hazard.kind = *kind;
    const size_t space_end = text.find("__ ");
    if (space_end == std::string_view::npos) return std::nullopt;
    hazard.space = std::string(text.substr(0, space_end));
    text.remove_prefix(space_end + 3);
    const size_t address_end = text.find(' ');
    if (address_end == std::string_view::npos) return std::nullopt;
    hazard.address = std::string(text.substr(0, address_end));
    text.remove_prefix(address_end);
    if (!eat(text, " in block ") || !read_triple(text, '(', ')', hazard.block)) return std::nullopt;
    return hazard;
}

// "Write Thread (1,0,0) at reduce(...)+0x1c0 in 01_reduce.cu:18"
bool read_hazard_thread(std::string_view text, RacecheckAccess& access) {
    if (!read_access_word(text, access.write) || !eat(text, "Thread ") || !read_triple(text, '(', ')', access.thread)) return false;
    skip_spaces(text);
    if (!eat(text, "at ")) return false;
    access.has_thread = true;
    place(access, text);
    return true;
}

// "Write access at RAW()+0xf0 in raceGroupBasic.cu:40", optionally ending in " [4 hazards]".
bool read_analysis_access(std::string_view text, RacecheckAccess& access, int64_t& hazards) {
    if (!read_access_word(text, access.write) || !eat(text, "access at ")) return false;
    hazards = 0;
    std::string_view where = text;
    if (const size_t open = text.rfind(" ["); open != std::string_view::npos && text.ends_with("]")) {
        std::string_view count = text.substr(open + 2);
        if (read_number(count, hazards) && (count == " hazards]" || count == " hazard]")) where = text.substr(0, open);
        else hazards = 0;
    }
    place(access, where);
    return true;
}

// "Race reported between Write access at A" and, in a one-line form, " and Read access at B [N hazards]".
std::optional<RaceAnalysis> read_analysis_head(std::string_view text, RaceSeverity severity) {
    if (!eat(text, "Race reported between ")) return std::nullopt;
    RaceAnalysis analysis;
    analysis.severity = severity;
    std::string_view first = text, rest;
    for (std::string_view partner : {" and Read access at ", " and Write access at "})
        if (const size_t at = text.find(partner); at != std::string_view::npos && (rest.empty() || at < first.size())) {
            first = text.substr(0, at);
            rest = text.substr(at + 5);
        }
    int64_t unused = 0;
    if (!read_analysis_access(first, analysis.access, unused)) return std::nullopt;
    if (!rest.empty()) {
        RacecheckAccess other;
        int64_t hazards = 0;
        if (!read_analysis_access(rest, other, hazards)) return std::nullopt;
        analysis.others.push_back(std::move(other));
        analysis.hazards.push_back(hazards);
    }
    return analysis;
}

// "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
bool read_summary(std::string_view text, RacecheckReport& report) {
    if (!eat(text, "RACECHECK SUMMARY: ")) return false;
    int64_t displayed = 0, errors = 0, warnings = 0;
    if (!read_number(text, displayed)) return false;
    report.displayed = displayed;
    if (!eat(text, " hazards displayed") && !eat(text, " hazard displayed")) return true;
    skip_spaces(text);
    if (eat(text, "(") && read_number(text, errors) && (eat(text, " errors, ") || eat(text, " error, ")) && read_number(text, warnings)) {
        report.errors = errors;
        report.warnings = warnings;
    }
    return true;
}

// Lines every compute-sanitizer report has that are not racecheck's findings.
bool is_known_notice(std::string_view text) {
    for (std::string_view prefix : {"COMPUTE-SANITIZER", "ERROR SUMMARY", "Saved host backtrace", "Host Frame", "Device Frame", "Target application",
                                    "Program hit ", "LEAK SUMMARY", "Warning: Detected overflow of tracked", "Error: process didn't terminate",
                                    "Barrier called by", "Syncwarp called by", "Sync mask of thread", "in "})
        if (text.starts_with(prefix)) return true;
    return false;
}

struct Reader {
    RacecheckReport& report;
    RaceHazard* hazard = nullptr;      // the record whose detail lines follow (the last one)
    RaceAnalysis* analysis = nullptr;

    void end_record() { hazard = nullptr, analysis = nullptr; }

    void line(std::string_view text) {
        RacecheckAccess access;
        int64_t hazards = 0;
        if (hazard && read_hazard_thread(text, access)) {
            (hazard->first.has_thread ? hazard->second : hazard->first) = std::move(access);
        } else if (hazard && eat(text, "Current Value : ")) {
            const size_t comma = text.find(", Incoming Value : ");
            hazard->current_value = trim(text.substr(0, comma));
            if (comma != std::string_view::npos) hazard->incoming_value = trim(text.substr(comma + 19));
        } else if (analysis && eat(text, "and ") && read_analysis_access(text, access, hazards)) {
            analysis->others.push_back(std::move(access));
            analysis->hazards.push_back(hazards);
        } else {
            head(text);
        }
    }

    void head(std::string_view text) {
        end_record();
        if (read_summary(text, report) || is_known_notice(text)) return;
        std::string_view rest = text;
        const auto severity = read_severity(rest);
        if (severity) {
            if (auto found = read_hazard_head(rest, *severity)) {
                report.hazards.push_back(std::move(*found));
                hazard = &report.hazards.back();
                return;
            }
            if (auto found = read_analysis_head(rest, *severity)) {
                report.analyses.push_back(std::move(*found));
                analysis = &report.analyses.back();
                return;
            }
        }
        report.unread.emplace_back(text);
    }
};

}  // namespace

std::string_view name_of(Hazard hazard) { return enum_name(kHazardNames, hazard); }
std::string_view name_of(RaceSeverity severity) { return enum_name(kSeverityNames, severity); }

RacecheckReport parse_racecheck_output(const std::string& text) {
    RacecheckReport report;
    Reader reader{report};
    for (std::string_view line : split_lines(text)) {
        if (!line.starts_with(kSanitizerBar)) continue;  // the program's own output
        line.remove_prefix(kSanitizerBar.size());
        const std::string body = trim(line);
        if (body.empty()) reader.end_record();
        else reader.line(body);
    }
    return report;
}

namespace {

std::string access_words(const RacecheckAccess& access, const char* pronoun) {
    std::string text = access.has_thread ? "thread " + triple_text(access.thread) + " " : std::string();
    text += access.write ? std::string("wrote ") + pronoun : std::string("read ") + pronoun;
    if (access.line > 0) text += " at line " + std::to_string(access.line);
    else if (!access.pc.empty()) text += " at " + access.pc + " (no line information)";
    return text;
}

}  // namespace

std::string describe_hazard(const RaceHazard& h) {
    std::string text = std::string(name_of(h.kind)) + " race on " + h.space + " memory byte " + h.address + " in block " + triple_text(h.block) +
                       ": " + access_words(h.first, "it") + ", then " + access_words(h.second, "it") +
                       (h.second.has_thread && h.first.has_thread && h.first.thread[1] == h.second.thread[1] && h.first.thread[2] == h.second.thread[2] &&
                                h.first.thread[0] / 32 == h.second.thread[0] / 32
                            ? " in the same warp with no __syncwarp() between them"
                            : " with no barrier between them");
    if (h.severity == RaceSeverity::warning) text += " (racecheck: a warning, typical of warp-synchronous code)";
    return text;
}

std::string describe_analysis(const RaceAnalysis& a) {
    std::string text = std::string(a.access.write ? "a write" : "a read") + (a.access.line > 0 ? " at line " + std::to_string(a.access.line) : "") +
                       " races with ";
    for (size_t i = 0; i < a.others.size(); ++i) {
        const RacecheckAccess& other = a.others[i];
        text += (i ? ", " : "") + std::string(other.write ? "a write" : "a read") +
                (other.line > 0 ? " at line " + std::to_string(other.line) : " at " + other.pc);
        if (a.hazards[i] > 0) text += " (" + std::to_string(a.hazards[i]) + " hazards)";
    }
    return text;
}

}  // namespace kplay
