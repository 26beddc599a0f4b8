// kplay's small expressions (base/expression.hpp) written as Python, for an exported snippet that
// recomputes a launch, a buffer's length or a tolerance from the sizes the caller passes.
//
// The same grammar is read again here, not the evaluator's tree, because the snippet needs the rule
// and not its value at one size: `cdiv(n,256)` becomes `cdiv(n, 256)` (the snippet defines cdiv),
// integer `/` becomes `//`, `&&` `||` `!` and comparisons give 0 or 1 through int(...), as they do in
// kplay. Names pass through python_name(), so a buffer or size called `in` is `in_` in the snippet.
#pragma once

#include <string>
#include <string_view>

namespace kplay {

enum class PythonArithmetic { integer, real };

// Throws InputError naming the expression and the position of what it cannot read.
std::string python_expression(std::string_view expression, PythonArithmetic arithmetic);

// A kplay name as a Python identifier: Python's keywords and the snippet's own module names (torch,
// math, os) get a trailing underscore.
std::string python_name(std::string_view name);

}  // namespace kplay
