// The summary's figures in the run report's layout: a label column, then plain words.
#include "profile_printer.hpp"

#include <cstdio>
#include <string>


namespace kplay::cli {

void print_profile(const ProfileOutcome& profile) {
    if (!profile.summary) {
        std::printf("  profile    none: %s\n", profile.problem.c_str());
        return;
    }
    const ProfileSummary& s = *profile.summary;
    const std::vector<std::string> lines = describe_profile(s);
    std::printf("  profile    ncu, clocks as they are (%.1f s): %s\n", profile.seconds, lines[0].c_str());
    for (size_t i = 1; i < lines.size(); ++i) std::printf("             %s\n", lines[i].c_str());
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
