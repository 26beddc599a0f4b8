// How one source line of a kernel used memory over a whole launch: the requests its loads and stores made,
// the 32-byte sectors and shared-memory wavefronts they cost beside the fewest they could have cost, and
// where the warps waited. Filled from Nsight Compute's per-instruction counters on a GPU (summed over the
// line's SASS instructions) or by the emulated device, which sees every access; shown the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kplay {

enum class LineAccessOrigin { ncu, emulated_device };
std::string_view name_of(LineAccessOrigin origin);  // "ncu", "emulated device"

// Global memory: one request is one warp executing one load or store instruction; a sector is 32 bytes.
// Ideal: the fewest sectors the bytes the warp's active threads asked for could have taken.
struct GlobalAccess {
    int64_t requests = 0, sectors = 0, ideal_sectors = 0;
    double sectors_per_request() const;  // 0 without requests
    double excess() const;               // sectors / ideal sectors; 0 without ideal sectors
    bool operator==(const GlobalAccess&) const = default;
};

// Shared memory: a wavefront is one pass through the 32 banks; a conflict-free request takes the ideal
// number (1 for 4-byte accesses, broadcasts included).
struct SharedAccess {
    int64_t requests = 0, wavefronts = 0, ideal_wavefronts = 0;
    double wavefronts_per_request() const;  // 0 without requests
    double excess() const;                  // wavefronts / ideal wavefronts: the n of n-way bank conflicts
    bool operator==(const SharedAccess&) const = default;
};

struct LineAccess {
    std::string file;  // as the line information names it
    int line = 0;      // 1-based, in `file`
    // Loads, and stores (atomics and reductions count as stores): one line may hold both, as a naive
    // transpose's `out[c * R + r] = in[r * C + c]` does.
    GlobalAccess global_loads, global_stores;
    SharedAccess shared_loads, shared_stores;
    // Warp stall samples taken while a warp's next instruction was on this line (ncu's PC sampling);
    // 0 where nothing sampled (the emulated device).
    int64_t stall_samples = 0;
    bool operator==(const LineAccess&) const = default;
};

struct LineAccessProfile {
    LineAccessOrigin origin = LineAccessOrigin::ncu;
    std::string kernel;             // the function measured (mangled where the GPU names it so)
    std::vector<LineAccess> lines;  // ascending by (file, line), each line once
    bool operator==(const LineAccessProfile&) const = default;
};

// The row of `line` in `file`, or nullptr.
const LineAccess* find_line(const LineAccessProfile& profile, const std::string& file, int line);

// Plain words for one line, e.g. "stores 32 sectors/request, 8x the ideal: uncoalesced" or "shared loads
// 32 wavefronts/request, 32x the ideal: 32-way bank conflicts", each kind of access the line has joined
// by "; "; "" for a line without memory accesses.
std::string describe_line_access(const LineAccess& line);

void to_json(nlohmann::json& j, const GlobalAccess& value);
void from_json(const nlohmann::json& j, GlobalAccess& value);
void to_json(nlohmann::json& j, const SharedAccess& value);
void from_json(const nlohmann::json& j, SharedAccess& value);
void to_json(nlohmann::json& j, const LineAccess& value);
void from_json(const nlohmann::json& j, LineAccess& value);
void to_json(nlohmann::json& j, const LineAccessProfile& value);
void from_json(const nlohmann::json& j, LineAccessProfile& value);

}  // namespace kplay
