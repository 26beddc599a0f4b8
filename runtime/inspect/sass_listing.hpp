// nvdisasm's SASS listing (-g or -gi, with -c), one listing per function linked to lines of the kernel file.
#pragma once

#include <string>
#include <vector>

#include "inspect/listing.hpp"

namespace kplay {

struct SassModule {
    std::string arch;                 // from `.target sm_90`
    std::vector<Listing> functions;   // Listing::function = mangled name
};

// nvdisasm -gi -c (or -g -c) output: one `.text.NAME:` section per function, line markers
// `//## File "path", line N` optionally followed by ` inlined at "path2", line M` (possibly chained),
// instructions `/*0040*/  IMAD R1, ... ;`, labels `.L_x_0:`. Map like PTX: the first location, innermost
// to outermost, that is in the kernel file.
//
// -gi prints an inlining chain as consecutive marker lines, innermost first, each naming the next one's
// location as its "inlined at" (`line 12 inlined at line 17`, `line 17 inlined at line 28`, `line 28`);
// consecutive markers chained that way form one chain. Any other marker replaces the current one.
// -g prints only the innermost location, so code inlined from a header has source_line 0 and origin
// set ("kplay.cuh:5"): the call site is nowhere in that listing.
//
// A function runs from its `.section .text.NAME` (or `//---- .text.NAME ----` header) to the next
// section or header. Shown: its directives, labels and instructions, trimmed; the .section line, the
// `//##` markers, blank lines and the second-half encoding lines of -hex output (`/* 0x... */` alone) are
// dropped. Only instructions carry a source_line. The padding nvdisasm shows after the last EXIT (a
// label, a `BRA` to itself and NOPs, with no marker of their own) is linked to no line, though its
// instructions keep instruction = true.
SassModule parse_nvdisasm(const std::string& text, const std::string& kernel_file);

// nullptr when the module has no function of that mangled name.
const Listing* find_function(const SassModule& module, const std::string& mangled_name);

}  // namespace kplay
