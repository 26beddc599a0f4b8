// The CSV records in a tool's mixed output (Nsight Compute prints its tables among the profiled
// program's own lines).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kplay::detail {

using CsvRow = std::vector<std::string>;

// One CSV record; false while a quoted field is still open at the end (it continues on the next line).
bool split_csv(std::string_view record, CsvRow& fields);

// The CSV rows of a mixed stream: lines that start with a quote, joined while a quoted field runs on.
std::vector<CsvRow> csv_rows(std::string_view text);

}  // namespace kplay::detail
