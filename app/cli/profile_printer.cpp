// The summary's figures in the run report's layout: a label column, then plain words.
#include "profile_printer.hpp"

#include <cstdio>
#include <string>

#include "base/text.hpp"

namespace kplay::cli {

namespace {
// "16.6%", or "n/a" for a figure ncu did not give.
std::string percent(double value) { return value < 0 ? "n/a" : short_number(value) + "%"; }
}  // namespace

void print_profile(const ProfileOutcome& profile) {
    if (!profile.summary) {
        std::printf("  profile    none: %s\n", profile.problem.c_str());
        return;
    }
    const ProfileSummary& s = *profile.summary;
    std::printf("  profile    ncu, clocks as they are (%.1f s): %s; SM %s, memory %s (DRAM %s) of peak\n", profile.seconds,
                duration_text(s.duration_ns).c_str(), percent(s.sm_throughput_pct).c_str(),
                percent(s.memory_throughput_pct).c_str(), percent(s.dram_throughput_pct).c_str());
    std::printf("             occupancy %s achieved of %s theoretical; L1 hit %s, L2 hit %s; %d registers/thread\n",
                percent(s.achieved_occupancy_pct).c_str(), percent(s.theoretical_occupancy_pct).c_str(), percent(s.l1_hit_pct).c_str(),
                percent(s.l2_hit_pct).c_str(), s.registers_per_thread);
    if (!s.top_stalls.empty()) {
        std::vector<std::string> stalls;
        for (const auto& stall : s.top_stalls) stalls.push_back(stall.name + " " + short_number(stall.cycles_per_issue));
        std::printf("             stalls: %s (cycles per issued instruction)\n", join(stalls).c_str());
    }
    for (const auto& advice : s.advice) std::printf("             ncu: %s\n", advice.c_str());
}

nlohmann::json profile_json(const ProfileOutcome& profile) {
    nlohmann::json out = {{"ok", profile.summary.has_value()}, {"problem", profile.problem}, {"seconds", profile.seconds}};
    if (!profile.summary) return out;
    const ProfileSummary& s = *profile.summary;
    nlohmann::json stalls = nlohmann::json::array();
    for (const auto& stall : s.top_stalls) stalls.push_back({{"name", stall.name}, {"cycles_per_issue", stall.cycles_per_issue}});
    out.update({{"kernel", s.kernel},
                {"duration_ns", s.duration_ns},
                {"sm_throughput_pct", s.sm_throughput_pct},
                {"memory_throughput_pct", s.memory_throughput_pct},
                {"dram_throughput_pct", s.dram_throughput_pct},
                {"achieved_occupancy_pct", s.achieved_occupancy_pct},
                {"theoretical_occupancy_pct", s.theoretical_occupancy_pct},
                {"l1_hit_pct", s.l1_hit_pct},
                {"l2_hit_pct", s.l2_hit_pct},
                {"registers_per_thread", s.registers_per_thread},
                {"top_stalls", stalls},
                {"advice", s.advice}});
    return out;
}

}  // namespace kplay::cli
