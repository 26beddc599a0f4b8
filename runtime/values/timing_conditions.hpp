// The GPU's clocks, temperature, power and throttling around a run's timed repeats (read through NVML
// by cuda/nvml), and whether they moved: a time is only comparable with another taken at the same clocks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kplay {

// One reading of the device's state.
struct ClockSample {
    double sm_mhz = 0, memory_mhz = 0;
    double temperature_c = 0;
    double power_w = 0;
    uint64_t throttle_reasons = 0;  // NVML's clocks-event (throttle) reason bits
};

// A reading, or why the device gives none.
struct ClockReading {
    std::optional<ClockSample> sample;
    std::string why_not;
};

struct TimingConditions {
    bool recorded = false;
    std::string why_not;  // when not recorded: "NVML (libnvidia-ml.so.1) not found", "the emulated device"
    ClockSample before, after;  // before the warm-ups and after the last timed repeat
    // Set by conclude_conditions:
    std::vector<std::string> throttled;  // the slowdown reasons seen before or after, in words
    bool moved = false;                  // the SM clock changed by more than 2% during the repeats, or a slowdown was seen
};

// The names of the slowdown reasons among NVML's bits (idle and the applications-clock setting are not
// slowdowns and are left out).
std::vector<std::string> slowdown_reasons(uint64_t bits);

// How far the SM clock moved over the repeats, relative to where it was before them (0 when not recorded).
double sm_clock_change(const TimingConditions& conditions);

// Fills throttled and moved from the two samples.
void conclude_conditions(TimingConditions& conditions);

// The conditions of a timed run from the readings before and after its repeats.
TimingConditions timing_conditions(const ClockReading& before, const ClockReading& after);

// One line for the user: "SM 1980 MHz, memory 3201 MHz, 34 -> 36 C, 142 W; steady" or why there is none.
std::string conditions_text(const TimingConditions& conditions);

}  // namespace kplay
