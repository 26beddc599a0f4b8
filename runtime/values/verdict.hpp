// A run summed up against its ceiling: the rate in the task's unit, the percentage of the ceiling, and
// a verdict that names the bound ("memory-bound: 71% of copy bandwidth").
//
// The worker judges each report it sends once, against the ceiling it measured. A ceiling the worker
// defers (cuBLAS at the run's size, measured by the window separately) is settled later with
// settle_library_ceiling: the same judgement against the new ceiling, the measured rates untouched.
#pragma once

#include <string>

#include "values/run_report.hpp"

namespace kplay {

// The rates from bytes, flops and the median time (gbps, gflops), then the judgement against
// report.ceiling (percent_of_ceiling, verdict).
void apply_verdict(RunReport& report);

// A deferred library ceiling measured at last (gflops > 0), or found unable to run here (gflops <= 0,
// `why_not` says why): the ceiling, the report's share of it and the verdict follow.
void settle_library_ceiling(RunReport& report, double gflops, const std::string& why_not);

// The percentage `rate` is of `ceiling_rate` (0 without a ceiling).
double share_of_ceiling(double rate, double ceiling_rate);

// "GB/s" or "GFLOP/s" for the task's rate unit; "TFLOP/s" is left to the printers.
const char* rate_unit_text(RateUnit unit);

// The name of a GEMM-like task's cuBLAS ceiling, by its GEMM's input type: "cuBLAS fp32", "cuBLAS f16",
// "cuBLAS bf16".
std::string cublas_ceiling_name(const TaskSpec& task);

}  // namespace kplay
