// The transpose ladder's one host reference: out (C rows of R) is in (R rows of C) transposed.
// A copy moves values exactly, so every step is checked with check=exact.
#pragma once

#include <cstddef>

void kplay_reference(const float* in, float* out, int R, int C) {
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) out[static_cast<size_t>(c) * R + r] = in[static_cast<size_t>(r) * C + c];
}
