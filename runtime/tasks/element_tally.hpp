// What one pass over an output's elements finds against the reference: the counts and error statistics a
// BufferCheck is made from, computed by the host (buffer_check) or where the buffer lives (a GPU's check
// kernel), and held to the same answers by tests.
#pragma once

#include <cstdint>

namespace kplay {

struct ElementTally {
    int64_t over_tolerance = 0;    // outside the rule (NaN/Inf and unwritten included)
    int64_t unwritten = 0;         // the poison of both checked launches
    int64_t nan_inf = 0;           // NaN or Inf where the reference is finite
    int64_t nondeterministic = 0;  // different between the two checked launches
    int64_t racy = 0;              // of those, the ones not excused as float atomics' order (within tolerance both times)
    int64_t wrong = 0;             // failed: outside the rule, or racy
    int64_t first_bad = -1;        // the lowest index that failed; -1: none
    // Over written, finite elements of a finite reference:
    double max_abs = 0, max_rel = 0, max_ratio = 0;  // max_rel only where |ref| > the rel floor
    double diff_squares = 0, ref_squares = 0;        // for the relative Frobenius error

    // The buffer passes: no element outside its rule, none racy.
    bool passes() const { return over_tolerance == 0 && racy == 0; }
};

}  // namespace kplay
