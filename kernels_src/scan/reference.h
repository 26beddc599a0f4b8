// reference.h: the host reference of the scan ladder, shared by every step.
//
// y[i] = x[0] + ... + x[i], accumulated in double in index order and rounded to float once per element.
// The double running sum of up to 2^26 terms in [0,1) is exact to about 1e-9 relative, far below the
// half-ulp (6e-8) that the rounding to float adds, so the reference is the correctly rounded prefix
// sum for all practical purposes. (A float running sum would not do: once it reaches 2^24, adding a
// term below 1 rounds to nothing, and the sums stop growing: a sequential float loop is off by 50% at
// n = 64M.)
//
// It takes the kernel's parameters. `work` is the ladder's scratch buffer (used from step 3 on); the
// reference has no use for it.
#pragma once

void kplay_reference(const float* x, float* y, unsigned* work, int n) {
    (void)work;
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += x[i];
        y[i] = static_cast<float>(sum);
    }
}
