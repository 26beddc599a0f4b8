// Text output of compile results: gcc-style diagnostics with the source line and a caret under the column.
#pragma once

#include <ostream>
#include <string>

#include "values/compile_result.hpp"

namespace kplay::cli {

void print_diagnostics(std::ostream& out, const CompileResult& result);
// "compiled FILE for sm_90 in 18.4 ms (cache miss), 0 errors, 1 warning"
void print_compile_summary(std::ostream& out, const std::string& file, const CompileResult& result);

}  // namespace kplay::cli
