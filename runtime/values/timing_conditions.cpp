// Throttle reasons in words and the "clocks moved" judgement for a timed run.
#include "values/timing_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kplay {

std::vector<std::string> slowdown_reasons(uint64_t bits) {
    // NVML's nvmlClocksEventReason* bits; 0x1 (GPU idle) and 0x2 (applications clocks) are no slowdown.
    static const std::pair<uint64_t, const char*> kReasons[] = {
        {0x4, "software power cap"},         {0x8, "hardware slowdown"},          {0x10, "sync boost"},
        {0x20, "software thermal slowdown"}, {0x40, "hardware thermal slowdown"}, {0x80, "power brake"},
        {0x100, "display clock setting"},
    };
    std::vector<std::string> names;
    for (const auto& [bit, name] : kReasons)
        if (bits & bit) names.push_back(name);
    return names;
}

void conclude_conditions(TimingConditions& conditions) {
    conditions.throttled.clear();
    conditions.moved = false;
    if (!conditions.recorded) return;
    for (const ClockSample* sample : {&conditions.before, &conditions.after})
        for (const std::string& reason : slowdown_reasons(sample->throttle_reasons))
            if (std::find(conditions.throttled.begin(), conditions.throttled.end(), reason) == conditions.throttled.end())
                conditions.throttled.push_back(reason);
    conditions.moved = !conditions.throttled.empty() || sm_clock_change(conditions) > 0.02;
}

double sm_clock_change(const TimingConditions& conditions) {
    if (!conditions.recorded) return 0;
    return std::abs(conditions.after.sm_mhz - conditions.before.sm_mhz) / std::max(1.0, conditions.before.sm_mhz);
}

TimingConditions timing_conditions(const ClockReading& before, const ClockReading& after) {
    TimingConditions conditions;
    conditions.recorded = before.sample && after.sample;
    if (conditions.recorded) {
        conditions.before = *before.sample;
        conditions.after = *after.sample;
    } else {
        conditions.why_not = !before.why_not.empty() ? before.why_not : !after.why_not.empty() ? after.why_not : "no reading";
    }
    conclude_conditions(conditions);
    return conditions;
}

std::string conditions_text(const TimingConditions& c) {
    if (!c.recorded) return "not recorded: " + c.why_not;
    char text[256];
    auto range = [](double from, double to, const char* unit) {
        char part[64];
        if (std::lround(from) == std::lround(to)) std::snprintf(part, sizeof part, "%.0f %s", to, unit);
        else std::snprintf(part, sizeof part, "%.0f -> %.0f %s", from, to, unit);
        return std::string(part);
    };
    std::snprintf(text, sizeof text, "SM %s, memory %.0f MHz, %s, %.0f W", range(c.before.sm_mhz, c.after.sm_mhz, "MHz").c_str(),
                  c.after.memory_mhz, range(c.before.temperature_c, c.after.temperature_c, "C").c_str(), c.after.power_w);
    std::string line = text;
    if (!c.throttled.empty()) {
        line += "; THROTTLED (";
        for (size_t i = 0; i < c.throttled.size(); ++i) line += (i ? ", " : "") + c.throttled[i];
        line += "): times are not comparable";
    } else if (c.moved) {
        line += "; the SM clock MOVED during the repeats: times are not comparable";
    } else {
        line += "; steady";
    }
    return line;
}

}  // namespace kplay
