// What a sweep learned about one point: pruned (with the limit it breaks), failed (a compile error, a
// fault, a hang), wrong (ran, but its check failed: it can never win), or timed and correct.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "values/run_report.hpp"
#include "sweep/sweep_space.hpp"

namespace kplay {

enum class PointState { pending, pruned, failed, wrong, passed };
const char* point_state_name(PointState state);  // "pending", "pruned", "failed", "wrong", "passed"
std::optional<PointState> parse_point_state(std::string_view text);

struct PointResult {
    SweepPoint point;
    std::string label;  // "tw=16 block_x=32"
    PointState state = PointState::pending;
    std::string reason;  // pruned: the limit; failed: the error; wrong: the check's summary
    double median_ms = 0, min_ms = 0, max_ms = 0;
    double rate = 0;                // in the task's unit (GB/s or GFLOP/s)
    RateUnit unit = RateUnit::bytes;
    double percent_of_ceiling = 0;  // 0 when there is no ceiling (the emulated device)
    std::string ceiling;            // "copy bandwidth", "cuBLAS fp32"
    double ceiling_rate = 0;        // the ceiling in the task's unit, as the worker measured it
    int registers = -1;             // per thread, once compiled
    double occupancy = -1;          // theoretical, 0..1
    std::string launch;             // "grid 256,256,1 block 16,16,1"
    bool from_cache = false;        // an earlier sweep of the same file, device and settings measured it
    // The confirm round: the point's median in each interleaved round, and their spread.
    std::vector<double> confirm_ms;
    double confirmed_ms = 0;  // the median of confirm_ms
    double spread = 0;        // (max - min) / median over the confirm rounds
    bool noisy = false;       // spread over the 5% a winner may have
    double clock_change = 0;  // the largest relative SM clock change over one confirm run's repeats
    std::string unsteady;     // the first confirm run whose clocks moved or slowed down, in words; empty: steady

    bool can_win() const { return state == PointState::passed; }
    // The time a point is ranked by: the confirmed median once confirmed, else the sweep's median.
    double ranking_ms() const { return confirmed_ms > 0 ? confirmed_ms : median_ms; }
};

// The point's result from the report of its run. A launch the worker refused for a limit it could only
// see once compiled (registers for the block) is pruned, not failed.
PointResult point_result_from(const SweepSpace& space, const SweepPoint& point, const RunReport& report);

nlohmann::json to_json(const PointResult& result);
PointResult point_result_from_json(const nlohmann::json& j);  // throws nlohmann::json::exception on a malformed entry

}  // namespace kplay
