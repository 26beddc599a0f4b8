// Draws and states for tests/emu_curand_test.cpp to check against the generators' own definitions:
// Philox4x32-10 (Salmon et al., with Random123's known-answer vectors), Marsaglia's xorwow, L'Ecuyer's
// MRG32k3a, and Sobol's first dimension (the van der Corput sequence in Gray-code order).

#include <curand_kernel.h>

// Case c starts every generator at (seed, subsequence, offset) = cases[3c], cases[3c+1], cases[3c+2].
// words[28c...]: 8 Philox draws; XORWOW's state after curand_init (d, v[0..4]) and its next 8 draws;
// MRG32k3a's state after curand_init (s1[0..2], s2[0..2]). reals[8c...]: MRG32k3a's next 8 uniform doubles.
__global__ void states(const unsigned long long* cases, unsigned* words, double* reals, int count) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= count) return;
    const unsigned long long seed = cases[3 * c], subsequence = cases[3 * c + 1], offset = cases[3 * c + 2];
    unsigned* out = words + 28 * c;
    curandStatePhilox4_32_10_t p;
    curand_init(seed, subsequence, offset, &p);
    for (int k = 0; k < 8; ++k) *out++ = curand(&p);
    curandStateXORWOW_t x;
    curand_init(seed, subsequence, offset, &x);
    *out++ = x.d;
    for (int k = 0; k < 5; ++k) *out++ = x.v[k];
    for (int k = 0; k < 8; ++k) *out++ = curand(&x);
    curandStateMRG32k3a_t m;
    curand_init(seed, subsequence, offset, &m);
    for (int k = 0; k < 3; ++k) *out++ = m.s1[k];
    for (int k = 0; k < 3; ++k) *out++ = m.s2[k];
    for (int k = 0; k < 8; ++k) reals[8 * c + k] = curand_uniform_double(&m);
}

// MRG32k3a from L'Ecuyer's example seed, 12345 in all six words: its first 4 uniforms.
__global__ void lecuyer(double* out) {
    curandStateMRG32k3a_t m;
    curand_init(0, 0, 0, &m);
    for (int k = 0; k < 3; ++k) m.s1[k] = m.s2[k] = 12345;
    for (int k = 0; k < 4; ++k) out[k] = curand_uniform_double(&m);
}

// Sobol32 over the first dimension's direction numbers (2^31, 2^30, ...): 8 draws from offset 0, then 8
// from offset 5.
__global__ void sobol(unsigned* out) {
    unsigned directions[32];
    for (int k = 0; k < 32; ++k) directions[k] = 1u << (31 - k);
    curandStateSobol32_t q;
    curand_init(directions, 0, &q);
    for (int k = 0; k < 8; ++k) out[k] = curand(&q);
    curand_init(directions, 5, &q);
    for (int k = 0; k < 8; ++k) out[8 + k] = curand(&q);
}
