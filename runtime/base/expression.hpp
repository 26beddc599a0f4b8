// Small expressions over named sizes, for kernel annotations and task declarations.
//
// Integer expressions size launches, buffers and arguments: "2*tw*tw*4", "cdiv(n,256)", "(w+15)/16",
// and state a kernel's requirements: "n%4==0 && n>=256". Real expressions give tolerances, costs and
// input ranges: "1e-6*sqrt(n)", "8*R*C", "-1.5".
//
// Grammar, loosest first: || and &&; == != < <= > >=; + -; * / %; unary - + !; then parentheses,
// decimal literals (reals also take 1.5, 2e-7), names bound in `names`, and calls. Integer calls:
// cdiv(a,b), min(a,b), max(a,b). Real calls add sqrt(x), log(x), log2(x), exp(x), abs(x) (or fabs), floor(x),
// ceil(x), pow(a,b).
// A comparison or logic operator gives 1 or 0. Integer arithmetic is 64-bit and checked: overflow
// and division by zero are errors, never wrapped values. A real result that is not finite is an error.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kplay {

using NamedValues = std::map<std::string, int64_t>;

// Both throw InputError naming the problem and the position, e.g.
// "unknown name 'q' at position 4 in 'tw*q' (known: tw, n)".
int64_t evaluate_int_expr(std::string_view expression, const NamedValues& names);
double evaluate_real_expr(std::string_view expression, const NamedValues& names);

}  // namespace kplay
