// ncu's per-instruction counters on the kernel's lines: each SASS instruction of the source page is
// found in kplay's own disassembly of the same CUBIN (by its offset, its opcode checked), whose line
// information names its line; the counters are summed per line into LineAccess values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "values/line_access.hpp"
#include "inspect/listing.hpp"
#include "inspect/ncu_source_page.hpp"

namespace kplay {

struct MappedInstruction {
    SassCounters counters;
    int line = 0;  // in the kernel file; 0 when the listing links it to none (a header's code)
};

struct NcuLineAccess {
    LineAccessProfile profile;                   // origin ncu, the lines of `kernel_file`
    std::vector<MappedInstruction> instructions; // every instruction of the page, in order
};

// Nothing, with `problem` saying why, when the listing has no offsets or more than a tenth of ncu's
// instructions are missing from it or have another opcode there (ncu profiled another build).
std::optional<NcuLineAccess> map_ncu_to_lines(const NcuSourcePage& page, const Listing& sass, const std::string& kernel_file,
                                              std::string* problem = nullptr);

// The accesses of one instruction as a LineAccess's (one of its four kinds filled), for summing.
void add_instruction(LineAccess& line, const SassCounters& counters);

}  // namespace kplay
