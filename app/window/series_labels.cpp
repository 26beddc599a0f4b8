// The 1D output view's axis labels. They are written into the caller's buffers: a frame draws dozens
// and allocates nothing for them.
#include "series_labels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace kplay::window {

double nice_step(double raw) {
    if (!(raw > 0) || !std::isfinite(raw)) return 1;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw * (1 - 1e-9)) return m * power;
    return 10 * power;
}

void format_index(char* out, size_t size, int64_t value) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%lld", static_cast<long long>(value < 0 ? -value : value));
    const int n = static_cast<int>(std::strlen(digits));
    size_t o = 0;
    if (value < 0 && o + 1 < size) out[o++] = '-';
    for (int i = 0; i < n && o + 1 < size; ++i) {
        if (i > 0 && (n - i) % 3 == 0 && o + 2 < size) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
}

ValueFormat value_format(double lo, double hi, double step) {
    ValueFormat f;
    f.step = step;
    const double magnitude = std::max(std::abs(lo), std::abs(hi));
    f.scientific = magnitude >= 1e5 || magnitude < 1e-3;
    f.decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 9);
    return f;
}

void format_value(char* out, size_t size, double value, const ValueFormat& f) {
    if (std::abs(value) < f.step * 1e-6) value = 0;
    if (value == 0) {
        std::snprintf(out, size, "0");
    } else if (f.scientific) {
        const int exponent = static_cast<int>(std::floor(std::log10(std::abs(value)) + 1e-9));
        const int digits = std::clamp(exponent - static_cast<int>(std::floor(std::log10(f.step) + 1e-9)), 0, 8);
        std::snprintf(out, size, "%.*fe%d", digits, value / std::pow(10.0, exponent), exponent);
    } else {
        std::snprintf(out, size, "%.*f", f.decimals, value);
    }
}

void format_decade(char* out, size_t size, int decade) {
    if (decade >= 0 && decade <= 3)
        std::snprintf(out, size, "%.0f", std::pow(10.0, decade));
    else if (decade >= -2 && decade < 0)
        std::snprintf(out, size, "%.*f", -decade, std::pow(10.0, decade));
    else
        std::snprintf(out, size, "1e%d", decade);
}

}  // namespace kplay::window
