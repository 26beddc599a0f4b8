// reference.h: the host reference of the softmax ladder, included by every step under KPLAY_REFERENCE.
// It computes in double, exactly as the definition reads: the row max, the sum of exp(x - max), then
// each exp(x - max) / sum. Its own rounding (about 1e-16) is far below any step's float error.
#include <algorithm>
#include <cmath>
#include <cstddef>

void kplay_reference(const float* x, float* y, int R, int C) {
    for (int r = 0; r < R; ++r) {
        const float* xr = x + static_cast<std::size_t>(r) * C;
        float* yr = y + static_cast<std::size_t>(r) * C;
        double m = -INFINITY;
        for (int c = 0; c < C; ++c) m = std::max(m, static_cast<double>(xr[c]));
        double s = 0.0;
        for (int c = 0; c < C; ++c) s += std::exp(static_cast<double>(xr[c]) - m);
        for (int c = 0; c < C; ++c) yr[c] = static_cast<float>(std::exp(static_cast<double>(xr[c]) - m) / s);
    }
}
