// The verdict of one run's check, as values: per output buffer, the flags that catch cheating and
// luck, and the test sizes. Made by tasks/task_check in the worker; shown by the window and the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "values/error_code.hpp"

namespace kplay {

struct Metric {
    std::string name;
    double value = 0;
};

// The first element of a buffer that fails its check, and where it lies in the buffer's shape.
struct BadElement {
    int64_t index = -1;           // flat index; -1: every element passed
    std::vector<int64_t> coords;  // (row, col) for a 2D buffer, (index) for a 1D one
    double got = 0, expected = 0, allowed = 0;
    bool unwritten = false;       // the kernel never wrote it (it holds each launch's poison)
    std::string text;             // "y[3][17] = 0.5, expected 0.25 (allowed error 1e-06)"
};

// One output buffer against the reference.
struct BufferCheck {
    std::string buffer;
    std::string rule;     // what "within tolerance" means here, e.g. "|got - ref| <= 1e-07 + 1e-05 |ref|"
    bool checked = true;  // false: the task says check=none (scratch space)
    bool passed = false;
    int64_t elements = 0;
    int64_t over_tolerance = 0;    // elements outside the rule (NaN/Inf and unwritten ones included)
    int64_t unwritten = 0;         // elements that kept the poison of both checked launches
    int64_t nan_inf = 0;           // NaN or Inf where the reference is finite
    int64_t nondeterministic = 0;  // elements that differ between the two checked launches
    double max_abs_error = 0, max_rel_error = 0;
    double max_error_ratio = 0;      // worst |got - ref| / allowed (<= 1 passes)
    double rel_frobenius_error = 0;  // ||got - ref|| / ||ref|| over finite elements
    double tolerance = 0;            // the rule's leading number (abs, rel, ulp or bound), for colour scales
    BadElement first_bad;
    std::string summary;  // "PASS: 1000 elements of 'y' within ..." / "FAIL: 3 of 1000 ..."
    // Named metrics in a fixed order: max_abs_error, max_rel_error, rel_frobenius_error, over_tolerance,
    // unwritten, nan_inf, nondeterministic, elements.
    std::vector<Metric> metrics() const;
};

// A further check of the same kernel: one of the task's test sizes, or a second seed of inputs.
struct SizeCheck {
    std::string sizes;  // "3x1000"
    uint64_t seed = 1;
    bool passed = false;
    bool skipped = false;    // the kernel's `requires` rules this size out
    std::string summary;     // the first failing buffer's summary, the fault, or why it was skipped
    ErrorCode error_code = ErrorCode::none;  // when the kernel faulted there
};

struct CheckReport {
    bool passed = false;
    std::string summary;  // one line for the user
    std::vector<BufferCheck> buffers;
    std::vector<std::string> overwritten_inputs;  // `in` buffers the kernel wrote to
    std::vector<std::string> input_independent;   // outputs that did not change when the inputs did
    std::string input_independent_at;             // the size where they did not, e.g. "1000"
    // Outputs the timed launches left wrong though both checked launches computed them: the kernel keeps
    // an answer across launches (replays it) instead of computing it each time.
    std::vector<std::string> replayed;
    std::vector<SizeCheck> sizes;                 // the test sizes and the second seed
    // Of the primary output: its metrics, first bad element in task terms and leading tolerance.
    std::vector<Metric> metrics;
    std::string first_bad;
    double tolerance = 0;
    std::string reference;  // where the expected outputs came from, e.g. "host function kplay_reference (sandboxed)"
    double reference_ms = 0;
    bool reference_cached = false;
    double metric(const std::string& name) const;  // 0 when absent
};

}  // namespace kplay
