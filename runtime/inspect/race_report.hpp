// compute-sanitizer racecheck's report: the shared-memory hazards it saw (hazard records), the races it
// put together from them (analysis records) and its summary line.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kplay {

// The order of the two accesses: read-after-write, write-after-read, write-after-write.
enum class Hazard { raw, war, waw };
std::string_view name_of(Hazard hazard);  // "RAW", "WAR", "WAW"

// racecheck's levels: an ERROR is very likely a race; a WARNING is most often warp-synchronous code that
// assumed lockstep (wrong since Volta); INFO has no effect on the result.
enum class RaceSeverity { info, warning, error };
std::string_view name_of(RaceSeverity severity);  // "info", "warning", "error"

struct RacecheckAccess {
    bool write = false;
    bool has_thread = false;         // hazard records name the thread; analysis records do not
    std::array<int, 3> thread{};
    std::string function;            // "WAW()" or the older "WAW(void)"
    std::string pc;                  // the instruction's offset in the function: "0x2f0"; "" when not printed
    std::string file;                // as printed, "" without line information
    int line = 0;
};

// One hazard record (`--racecheck-report hazard`): one byte of shared memory, two threads of one block.
//   ========= Error: Potential RAW hazard detected at __shared__ 0x8 in block (0,0,0) :
//   =========     Write Thread (1,0,0) at reduce(float const*, float*)+0x1c0 in 01_reduce.cu:18
//   =========     Read Thread (0,0,0) at reduce(float const*, float*)+0x230 in 01_reduce.cu:21
//   =========     Current Value : 0, Incoming Value : 1
struct RaceHazard {
    RaceSeverity severity = RaceSeverity::error;
    Hazard kind = Hazard::raw;
    std::string space = "shared";      // from "__shared__"
    std::string address;               // "0x8": the byte's offset in the block's shared memory
    std::array<int, 3> block{};
    RacecheckAccess first, second;          // in the order they happened
    std::string current_value, incoming_value;  // "" when the record has no such line
};

// One analysis record (`--racecheck-report analysis`): the source locations of one race.
//   ========= Error: Race reported between Write access at RAW()+0xf0 in raceGroupBasic.cu:40
//   =========     and Read access at RAW()+0x280 in raceGroupBasic.cu:46 [4 hazards]
struct RaceAnalysis {
    RaceSeverity severity = RaceSeverity::error;
    RacecheckAccess access;                 // the first location
    std::vector<RacecheckAccess> others;    // each "and ... access at" line
    std::vector<int64_t> hazards;      // the "[N hazards]" of each other line (0 where not printed)
};

struct RacecheckReport {
    std::vector<RaceHazard> hazards;        // in the order printed (print-limit caps them)
    std::vector<RaceAnalysis> analyses;
    int64_t displayed = -1, errors = -1, warnings = -1;  // "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)"; -1 when absent
    std::vector<std::string> unread;        // report lines (after the bar) of no form kplay knows, in order
    bool empty() const { return hazards.empty() && analyses.empty(); }
};

// The profiled program's own lines (no bar) are skipped; a report cut short keeps what was read.
// Severity words of every version are read: "Error:", "ERROR:", "Warning:", "WARN:", "WARNING:", "Info:",
// "INFO:" (older versions add "(Warp Level Programming)"); threads as "(1,0,0)" or "(1, 0, 0)"; locations
// as "FUNCTION+0xPC in FILE:LINE", "FUNCTION+0xPC" or the older "0xPC in FILE:LINE:FUNCTION".
RacecheckReport parse_racecheck_output(const std::string& text);

// Plain words: "RAW race on shared memory byte 0x8 in block (0,0,0): thread (1,0,0) wrote it at line 18,
// then thread (0,0,0) read it at line 21 with no barrier between them".
std::string describe_hazard(const RaceHazard& hazard);
std::string describe_analysis(const RaceAnalysis& analysis);

}  // namespace kplay
