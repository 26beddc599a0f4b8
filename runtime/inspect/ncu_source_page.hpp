// Nsight Compute's source page as CSV (`ncu --import R --csv --page source --print-source sass`, of a
// report collected with `--section SourceCounters`): one row per SASS instruction with its counters.
//
//   "Kernel Name","transpose_naive(const float *, float *, int, int)"
//   "Address","Source","Warp Stall Sampling (All Samples)",...,"Instructions Executed",...,"Address Space","Access Operation",...,
//       "L2 Theoretical Sectors Global","L2 Theoretical Sectors Global Ideal",...,"L1 Wavefronts Shared","L1 Wavefronts Shared Ideal",...
//   "0x7f3a1c001700","LDG.E R2, desc[UR4][R2.64]","120",...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kplay {

struct SassCounters {
    uint64_t offset = 0;           // bytes from the function's first instruction (ncu prints addresses)
    std::string sass;              // "LDG.E R2, desc[UR4][R2.64]"
    int64_t executed = 0;          // warp-level executions ("Instructions Executed")
    int64_t stall_samples = 0;     // "Warp Stall Sampling (All Samples)"
    int64_t l2_sectors = 0;        // "L2 Theoretical Sectors Global"
    int64_t l2_ideal_sectors = 0;  // its "... Ideal" column, or the sectors less "... Excessive"
    int64_t shared_wavefronts = 0;        // "L1 Wavefronts Shared"
    int64_t shared_ideal_wavefronts = 0;  // its "... Ideal" column, or the wavefronts less "... Excessive"
    bool global = false, shared = false;  // the memory it accesses ("Address Space", else the opcode)
    bool store = false;                   // a store, atomic or reduction ("Access Operation", else the opcode)
};

struct NcuSourcePage {
    std::string kernel;                     // the "Kernel Name" row's, when there is one
    std::vector<SassCounters> instructions; // in address order, as printed
    std::vector<std::string> missing;       // counters ncu's table lacked (their values are 0), for the reader
};

// The first kernel's table. Nothing, with `error` naming what is wrong, for a table without the
// "Address", "Source" and "Instructions Executed" columns, without any memory counter column, with a
// value that is not a number, or with no instruction rows. Numbers may use thousands separators; "" and
// "-" read as 0.
std::optional<NcuSourcePage> parse_ncu_source_csv(const std::string& text, std::string* error = nullptr);

// The opcode of a SASS instruction without its predicate: "@!P0 LDG.E.128 R4, [R2]" -> "LDG.E.128".
std::string sass_opcode(const std::string& instruction);

}  // namespace kplay
