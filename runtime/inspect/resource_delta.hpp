// What changed between two compiles of a kernel: registers, spills, stack, static smem, barriers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inspect/ptxas_report.hpp"

namespace kplay {

struct ResourceChange {
    std::string what;          // "registers", "spill stores", "spill loads", "stack frame", "static smem", "barriers"
    int64_t before = 0, after = 0;
    std::string unit;          // "" or "B"
    bool worse = false;        // more of it
};

// Only what differs, in the order of `what` above. The found flags are not consulted: compare two reports
// that both have the function (an absent one reads as all zeros).
std::vector<ResourceChange> resource_changes(const PtxasResources& before, const PtxasResources& after);

// "registers 40 → 72, spill stores 0 → 16 B" (UTF-8 arrow); empty when nothing changed.
std::string describe_changes(const std::vector<ResourceChange>& changes);

}  // namespace kplay
