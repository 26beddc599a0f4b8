// A sweep's results as the bench's kind of table (kplay-cli sweep) and as JSON (--json): every point
// that ran, fastest correct first, then the wrong and failed ones, then what was pruned and why, and the
// winner with its confirm round.
//
// Kept apart from the command so the layout and JSON are tested without a GPU.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sweep/sweep.hpp"

namespace kplay {

// The points as shown: correct by ranking time, then wrong, failed, pending (cancelled) and pruned.
std::vector<size_t> display_order(const std::vector<PointResult>& results);

// "5.1234 ms" style figures in fixed columns; the same results always give the same layout.
std::string format_sweep_table(const Sweep& sweep);
nlohmann::json sweep_json(const Sweep& sweep);
// With several workers, the points each ran and any that dropped out, as lines; "" with one.
std::string workers_summary(const Sweep& sweep);

// One line on the winner: "best: tw=32 block_x=32: 5.12 ms ..., the confirm round kept it" (or why
// there is none).
std::string best_summary(const Sweep& sweep);

}  // namespace kplay
