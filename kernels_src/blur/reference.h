// reference.h: the host reference of the blur ladder, included by every step under KPLAY_REFERENCE.
// The task's arithmetic, defined exactly: out = (sum + 128) >> 8, where sum is the integer sum of
// k[i] k[j] in[clamp(y+i-2)][clamp(x+j-2)][channel] over the 5x5 window with k = 1 4 6 4 1. The
// weights total 256, so this is the weighted mean rounded half up, and the sum (at most 65280) fits
// any integer type a kernel uses. A separable kernel computes the same integer: sum = sum over j of
// k[j] * (sum over i of k[i] * pixel) regroups the same products, so with a full-precision (at least
// 12-bit) intermediate every step matches this reference bit for bit (check=exact).
#include <algorithm>
#include <cstddef>

void kplay_reference(const unsigned char* in, unsigned char* out, int w, int h) {
    static const int k[5] = {1, 4, 6, 4, 1};
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int ch = 0; ch < 3; ++ch) {
                int sum = 0;
                for (int i = 0; i < 5; ++i) {
                    const int yy = std::clamp(y + i - 2, 0, h - 1);
                    for (int j = 0; j < 5; ++j) {
                        const int xx = std::clamp(x + j - 2, 0, w - 1);
                        sum += k[i] * k[j] * in[(static_cast<std::size_t>(yy) * w + xx) * 3 + ch];
                    }
                }
                out[(static_cast<std::size_t>(y) * w + x) * 3 + ch] = static_cast<unsigned char>((sum + 128) >> 8);
            }
}
