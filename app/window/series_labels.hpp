// The 1D output view's axis labels, without ImGui: tick steps, indices written out in full, value
// labels that agree along an axis, and the decades of the |error| / allowed axis.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kplay::window {

// 1, 2 or 5 times a power of ten, at least `raw` (1 for a step that is not a positive number).
double nice_step(double raw);

// "1,234,567": indices are read digit by digit when hunting a bug, so they are never abbreviated.
void format_index(char* out, size_t size, int64_t value);

// How a value axis writes its labels, chosen once per axis so that neighbouring labels agree.
struct ValueFormat {
    bool scientific = false;
    int decimals = 0;  // fixed: after the point; scientific: unused, digits come from the step
    double step = 1;
};

// Scientific beyond 1e5 or below 1e-3; as many digits as the step between labels needs.
ValueFormat value_format(double lo, double hi, double step);
void format_value(char* out, size_t size, double value, const ValueFormat& format);

// 10^decade as "1e-6", "0.01", "1", "1000", "1e4".
void format_decade(char* out, size_t size, int decade);

}  // namespace kplay::window
