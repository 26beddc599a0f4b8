// The host reference of the vector_add ladder: c = a + b in float, element by element. A float sum of
// two floats is correctly rounded on the host and on the GPU alike, so every step must match exactly.
void kplay_reference(const float* a, const float* b, float* c, int n) {
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
