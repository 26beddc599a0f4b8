// Everything the inspect views show for one compile of a kernel file: its PTX and SASS linked to the
// file's lines, the ptxas resource report, and the theoretical occupancy at a block size. Made from a
// compile's result in the client (kplay-cli inspect, the window's Inside panel); only nvdisasm runs here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "values/run_report.hpp"
#include "inspect/listing.hpp"
#include "inspect/occupancy_estimate.hpp"
#include "inspect/ptxas_report.hpp"
#include "inspect/sass_listing.hpp"

namespace kplay {

struct KernelInspection {
    std::string file;          // the kernel file, as the compiler named it
    std::string arch;          // sm_90
    std::string kernel;        // the annotated kernel's name expression, "matmul_k<16>"
    std::string lowered_name;  // its mangled name in the binary
    bool compiled = false;
    std::string problem;       // why there is nothing to show (a compile error, an unreadable file)
    std::vector<Diagnostic> diagnostics;
    double compile_ms = 0;
    bool cache_hit = false;

    Listing ptx;                    // the whole module
    std::optional<Listing> sass;    // the kernel's function
    std::string sass_problem;       // why there is no SASS (nvdisasm missing or failed)
    PtxasReport ptxas;
    PtxasResources resources;       // the kernel's own (found == false when ptxas said nothing of it)
    int block_threads = 0;          // the block the occupancy is for (0: unknown)
    std::optional<OccupancyEstimate> occupancy;
};

// `block_threads` 0: the annotation's block where it is a constant. `want_sass`: run nvdisasm on the
// CUBIN (a few tens of ms; the window does it off the UI thread).
KernelInspection inspect_compile(const CompileFileResult& result, const std::string& kernel_file, int block_threads, bool want_sass);

// The SASS of a CUBIN as nvdisasm -gi -c prints it; `problem` set (and text empty) when nvdisasm is
// missing or fails.
struct Disassembly {
    std::string text;
    std::string problem;
};
Disassembly disassemble_cubin(const std::string& cubin);

}  // namespace kplay
