// The host reference of the reduction ladder: the sum of n floats, accumulated in double in index
// order. Its own rounding (about n * 2^-53 relative) is far below the check's tolerance, so whatever
// error the check sees is the kernel's float arithmetic and its order of additions.
void kplay_reference(const float* x, float* total, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += x[i];
    *total = static_cast<float>(sum);
}
