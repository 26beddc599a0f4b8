// Ties in the confirm round: clock changes noted per point, and the margin two points must be apart by.
#include "sweep/confirm_ties.hpp"

#include <algorithm>

namespace kplay {

void note_confirm_conditions(PointResult& point, const TimingConditions& conditions) {
    point.clock_change = std::max(point.clock_change, sm_clock_change(conditions));
    if (conditions.moved && point.unsteady.empty()) point.unsteady = conditions_text(conditions);
}

std::vector<size_t> tied_with(const std::vector<PointResult>& results, size_t best, double unsteady_margin) {
    std::vector<size_t> tied;
    if (best >= results.size() || results[best].confirmed_ms <= 0) return tied;
    const PointResult& winner = results[best];
    for (size_t i = 0; i < results.size(); ++i) {
        const PointResult& other = results[i];
        if (i == best || !other.can_win() || other.confirmed_ms <= 0) continue;
        // Two medians closer than either point's own rounds vary, or than the clock moved, say nothing.
        double margin = std::max({winner.spread, other.spread, winner.clock_change, other.clock_change});
        if (!winner.unsteady.empty() || !other.unsteady.empty()) margin = std::max(margin, unsteady_margin);
        if ((other.confirmed_ms - winner.confirmed_ms) / winner.confirmed_ms <= margin) tied.push_back(i);
    }
    std::sort(tied.begin(), tied.end(), [&](size_t a, size_t b) { return results[a].confirmed_ms < results[b].confirmed_ms; });
    return tied;
}

}  // namespace kplay
