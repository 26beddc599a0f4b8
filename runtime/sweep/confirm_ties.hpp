// Calling the confirm round's result honestly: which points the winner cannot be told apart from, given
// how much each point's own rounds spread and whether the GPU's clocks moved while they were timed.
#pragma once

#include <cstddef>
#include <vector>

#include "sweep/point_result.hpp"
#include "values/timing_conditions.hpp"

namespace kplay {

// Folds one confirm run's timing conditions into its point: the largest relative SM clock change seen,
// and the first unsteady run's conditions in words (a clock that moved, or a slowdown reason).
void note_confirm_conditions(PointResult& point, const TimingConditions& conditions);

// The confirmed points (other than `best`) whose confirmed median is within the margin of best's: the
// larger of the two points' round spreads and clock changes, and at least `unsteady_margin` when either
// point's confirm round ran on unsteady clocks. Fastest first.
std::vector<size_t> tied_with(const std::vector<PointResult>& results, size_t best, double unsteady_margin);

}  // namespace kplay
