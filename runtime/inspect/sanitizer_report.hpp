// compute-sanitizer's text output: the error count, the first finding, a device assertion; and for
// racecheck its hazards and races (race_report.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "inspect/race_report.hpp"

namespace kplay {

// The sanitizer's tools: memcheck (out-of-bounds and misaligned accesses), racecheck (shared-memory
// hazards between threads of a block), synccheck (barriers used wrongly), initcheck (reads of memory
// nothing wrote).
enum class SanitizerTool { memcheck, racecheck, synccheck, initcheck };
std::string_view name_of(SanitizerTool tool);  // "memcheck", ...: the word `--tool` takes
std::optional<SanitizerTool> parse_sanitizer_tool(std::string_view name);
std::string sanitizer_tool_names();            // "memcheck, racecheck, synccheck, initcheck"

struct SanitizerFinding {
    std::string kind;                // "Invalid __global__ write of size 1 bytes", "Trace/breakpoint trap", ...
    std::string access;              // "write", "read", "atomic", or "" (a trap)
    int access_size = 0;             // bytes
    std::string function;            // "oob_write(unsigned char *, unsigned char *, int)"
    std::string file;                // as printed: "01_out_of_bounds_write.cu"
    int line = 0;
    std::array<int, 3> thread{}, block{};
    std::string address;             // "0x7ff5a0e00860"
    std::string problem;             // "is out of bounds", "is misaligned"
    std::string nearest_allocation;  // the "and is ... bytes after the nearest allocation at ... of size ..." line
    // Read from the lines above:
    std::string space;               // "global", "shared", "local" from "Invalid __global__ ..."; else ""
    bool has_thread = false;         // a "by thread (..) in block (..)" line was read
    std::string allocation_side;     // "after", "before", "inside", or "" when there is no such line
    int64_t allocation_distance = -1;  // bytes before/after the allocation; -1 when unknown or inside
    int64_t allocation_size = -1;      // bytes; -1 when unknown
};

struct DeviceAssertion {             // printed by the device: "FILE:13: void f(...): block: [1333,0,0], thread: [85,0,0] Assertion `i != n / 3` failed."
    std::string file, function, condition;
    int line = 0;
    std::array<int, 3> thread{}, block{};
};

struct SanitizerReport {
    SanitizerTool tool = SanitizerTool::memcheck;
    int error_count = -1;                          // from "ERROR SUMMARY: N errors" (racecheck: its summary's
                                                   // errors and warnings); -1 when absent
    std::optional<SanitizerFinding> first;
    std::optional<DeviceAssertion> assertion;
    std::string tool_error;                        // e.g. "process didn't terminate successfully" lines
    RacecheckReport races;                         // racecheck's records (empty for the other tools)
};

// The profiled program's own lines are skipped (except a device assertion). Later findings are not kept;
// tool_error joins the "Error: ..." lines with "; ". A truncated report keeps what was read. synccheck's
// "Barrier error detected. ..." and initcheck's "Uninitialized __global__ memory read of size 4 bytes"
// are findings like memcheck's; racecheck's records go to `races`.
SanitizerReport parse_sanitizer_output(const std::string& text, SanitizerTool tool = SanitizerTool::memcheck);

// Whether `finding` has the first line's form the tool is documented to print (a memcheck "Invalid
// __global__ write ...", a synccheck "Barrier error detected. ...", an initcheck "Uninitialized ...");
// the finders refuse to name a line from a form they do not know.
bool is_known_finding(const SanitizerFinding& finding, SanitizerTool tool);

// Plain words, e.g. "thread (96,0,0) of block (8,0,0) wrote 1 byte out of bounds at line 12 (oob_write),
// 16.9 GB after the nearest allocation (512 B)". Sizes use decimal units (kB, MB, GB, TB).
std::string describe_finding(const SanitizerFinding& finding);

}  // namespace kplay
