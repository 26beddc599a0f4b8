// The histogram ladder's one host reference: count each of the 256 byte values over all n bytes.
// It takes every step's parameters (the kernels are launched with n = 3*w*h, all channels together).
// Integer counts are exact, so any kernel that loses or doubles an update fails check=exact.
#pragma once

void kplay_reference(const unsigned char* pixels, unsigned int* bins, int n) {
    for (int b = 0; b < 256; ++b) bins[b] = 0;
    for (int i = 0; i < n; ++i) ++bins[pixels[i]];
}
