// compute-sanitizer memcheck's text output: the error count, the first finding, a device assertion.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace kplay {

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
    int error_count = -1;                          // from "ERROR SUMMARY: N errors"; -1 when absent
    std::optional<SanitizerFinding> first;
    std::optional<DeviceAssertion> assertion;
    std::string tool_error;                        // e.g. "process didn't terminate successfully" lines
};

// The profiled program's own lines are skipped (except a device assertion). Later findings are not kept;
// tool_error joins the "Error: ..." lines with "; ". A truncated report keeps what was read.
SanitizerReport parse_sanitizer_output(const std::string& text);

// Plain words, e.g. "thread (96,0,0) of block (8,0,0) wrote 1 byte out of bounds at line 12 (oob_write),
// 16.9 GB after the nearest allocation (512 B)". Sizes use decimal units (kB, MB, GB, TB).
std::string describe_finding(const SanitizerFinding& finding);

}  // namespace kplay
