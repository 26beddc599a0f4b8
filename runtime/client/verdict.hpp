// A run summed up against its ceiling: the rate in the task's unit, the percentage of the ceiling, and
// a verdict that names the bound ("memory-bound: 71% of copy bandwidth"). Pure, so the window can say
// it again when a ceiling it measured separately (cuBLAS) arrives.
#pragma once

#include <string>

#include "client/run_report.hpp"

namespace kplay {

// Fills rate-derived fields from bytes, flops, the median time and report.ceiling: gbps, gflops,
// percent_of_ceiling and verdict.
void apply_verdict(RunReport& report);

// "GB/s" or "GFLOP/s" for the task's rate unit; "TFLOP/s" is left to the printers.
const char* rate_unit_text(RateUnit unit);

}  // namespace kplay
