// Small integer expressions for annotations and launch settings: "2*tw*tw*4", "cdiv(n,256)", "(w+15)/16".
//
// Grammar: + - * / % with the usual precedence, unary minus, parentheses, decimal literals, names bound
// in `names`, and the functions cdiv(a,b), min(a,b), max(a,b). Arithmetic is 64-bit and checked:
// overflow and division by zero are errors, never wrapped values.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace kplay {

using NamedValues = std::map<std::string, int64_t>;

// Throws InputError naming the problem and the position, e.g. "unknown name 'q' in 'tw*q' (known: tw, n)".
int64_t evaluate_int_expr(std::string_view expression, const NamedValues& names);

}  // namespace kplay
