// The ptxas resource report (NVRTC's log with --ptxas-options=-v), per function: registers, spills, stack, smem.
#pragma once

#include <string>
#include <vector>

namespace kplay {

struct PtxasResources {
    std::string function;            // mangled
    int registers = 0;
    int spill_store_bytes = 0, spill_load_bytes = 0;
    int stack_frame_bytes = 0, cumulative_stack_bytes = 0;
    int static_smem_bytes = 0;
    int const_bytes = 0;             // cmem[0] where printed
    int barriers = 0;
    bool found = false;              // a "Used N registers" line was read for it
};

struct PtxasReport {
    std::string arch;                // sm_90
    int gmem_bytes = 0;
    std::vector<PtxasResources> functions;
    std::vector<std::string> notes;  // other ptxas info lines worth showing (e.g. "Overriding ... maxrregcount")
    const PtxasResources* find(const std::string& mangled) const;
};

// Lines not from ptxas are ignored. Entry functions come in the order ptxas compiled them; a non-entry
// function that only has a "Function properties" block (a noinline callee) is listed too, with found=false.
// Notes hold the info lines that are not part of the per-function report, and ptxas warnings and errors
// as "warning: ..." / "error: ...". Numbers that do not fit an int leave the field at 0.
PtxasReport parse_ptxas_report(const std::string& nvrtc_log);

}  // namespace kplay
