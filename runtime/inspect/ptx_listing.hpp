// PTX as NVRTC gives it with -lineinfo, as a listing linked to lines of the kernel file.
#pragma once

#include <string>
#include <vector>

#include "inspect/listing.hpp"

namespace kplay {

// PTX as NVRTC gives it with -lineinfo: `.file N "path"` (at the end of the module), `.loc F L C`, and
// `.loc F L C, function_name $L__info_stringK, inlined_at F2 L2 C2`. A line belongs to the last .loc
// before it (reset at each .entry/.func header and at the body's closing brace).
//
// Mapping: the first location, innermost to outermost, in the kernel file with a line > 0: the .loc's own,
// then its inlined_at, then the inlined_at of that site as the module states it elsewhere (the .loc with
// that file/line/column most recently seen, else the first one anywhere in the module); origin is set
// when the .loc's own file is another one. `.loc F 0 C` (no line) links nothing unless it is inlined.
//
// Shown lines: every line of the module, trimmed, except the .loc and .file lines and the .section
// .debug_* { ... } blocks. Only instruction lines (and continuation lines of a statement split over
// several lines, with instruction = false) carry a source_line; labels, directives, braces, comments
// and blank lines have 0.
//
// An instruction is a line inside a function body (between a `{` line and its `}`) whose code (the text
// before any `//`) starts with a lowercase letter or '@' (a predicate guard) and is not a label (`name:`).
// One that does not end with ';' (a `call` split over lines) continues until a line that does; it counts
// once, on its first line. Directives (code starting with '.': .reg, .shared, .param, .pragma ...),
// labels ($L__BB0_3:), braces, the entry's parameter list and blank lines are not instructions.
Listing parse_ptx(const std::string& ptx, const std::string& kernel_file);

}  // namespace kplay
