// Every generator and distribution of cuRAND's device API that kplay runs, drawn by one function that
// the kernel calls once per thread and the host reference once per index: thread i starts each
// generator at (seed, subsequence i, an offset of its own) and writes its draws to its slots of the
// buffer of their type. tests/emu_curand_test.cpp holds the emulated device to the reference bit for
// bit; tests/gpu_curand_test.cpp holds a GPU to it under the checks below: exact for the integer draws
// and the uniforms; for normals and log-normals the difference the GPU's hardware approximations make
// (README: "Random numbers: a dropout with cuRAND"); Poisson counts within one.
// kplay-sizes: n default=4096 cpu=300 test=1,33
// kplay-buffer: seeds i64[1] in init=randint(1,1000000000)
// kplay-buffer: directions u32[32] in init=randint(1,2147483647)
// kplay-buffer: raw u32[24*n] out check=exact
// kplay-buffer: uniforms f32[15*n] out check=exact
// kplay-buffer: uniforms_double f64[16*n] out check=exact
// kplay-buffer: normals f32[35*n] out check=rel:2e-5,abs:2e-5
// kplay-buffer: normals_double f64[35*n] out check=rel:5e-14,abs:5e-14
// kplay-buffer: counts u32[13*n] out check=abs:1
// kplay-task: extent=n
// kplay: args=seeds,directions,raw,uniforms,uniforms_double,normals,normals_double,counts,n block=64
#include <curand_kernel.h>

// Where one thread's draws go: its slots of each buffer, filled in order.
struct Slots {
    unsigned* raw;
    float* uniforms;
    double* uniforms_double;
    float* normals;
    double* normals_double;
    unsigned* counts;
};

// The subsequence jump curand_init makes: 2^67 draws for XORWOW, 2^66 for Philox, 2^76 for MRG32k3a.
template <class State>
__host__ __device__ void jump_subsequences(unsigned long long n, State* state) { skipahead_sequence(n, state); }
template <>
__host__ __device__ void jump_subsequences(unsigned long long n, curandStateMRG32k3a_t* state) { skipahead_subsequence(n, state); }

// What every pseudo-random generator has: 4 raw draws, one more after an explicit skip-ahead, 3 uniforms
// of each width, then normals and log-normals one at a time and in pairs, and Poisson counts by each of
// the three methods (lambda < 64, up to 4000, beyond), each from a state of its own.
template <class State>
__host__ __device__ void draw_generator(unsigned long long seed, int i, unsigned long long offset, Slots& out) {
    State s;
    curand_init(seed, i, offset, &s);
    for (int k = 0; k < 4; ++k) *out.raw++ = curand(&s);
    for (int k = 0; k < 3; ++k) *out.uniforms++ = curand_uniform(&s);
    for (int k = 0; k < 3; ++k) *out.uniforms_double++ = curand_uniform_double(&s);
    for (int k = 0; k < 3; ++k) *out.normals++ = curand_normal(&s);
    const float2 pair = curand_normal2(&s);
    *out.normals++ = pair.x, *out.normals++ = pair.y;
    *out.normals++ = curand_log_normal(&s, 0.5f, 0.75f);
    const float2 log_pair = curand_log_normal2(&s, -1.0f, 0.5f);
    *out.normals++ = log_pair.x, *out.normals++ = log_pair.y;
    for (int k = 0; k < 3; ++k) *out.normals_double++ = curand_normal_double(&s);
    const double2 pair_double = curand_normal2_double(&s);
    *out.normals_double++ = pair_double.x, *out.normals_double++ = pair_double.y;
    *out.normals_double++ = curand_log_normal_double(&s, 0.5, 0.75);
    const double2 log_pair_double = curand_log_normal2_double(&s, -1.0, 0.5);
    *out.normals_double++ = log_pair_double.x, *out.normals_double++ = log_pair_double.y;

    State skipped;
    curand_init(seed, 0, 0, &skipped);
    jump_subsequences(i, &skipped);
    skipahead(offset, &skipped);
    *out.raw++ = curand(&skipped);  // the same as the first raw draw

    const double lambdas[3] = {3.5, 250.0, 6000.0};
    for (int k = 0; k < 3; ++k) {
        State fresh;
        curand_init(seed, i, offset + 1000 * k, &fresh);
        *out.counts++ = curand_poisson(&fresh, lambdas[k]);
    }
}

// Philox's four-at-a-time forms, MRG32k3a's jump by whole sequences (2^127), and a Sobol32 sequence
// over the input's direction numbers.
template <class Unused>
__host__ __device__ void draw_extras(unsigned long long seed, int i, unsigned long long offset, const unsigned* directions, Slots& out) {
    curandStatePhilox4_32_10_t p;
    curand_init(seed, i, offset, &p);
    const uint4 four = curand4(&p);
    *out.raw++ = four.x, *out.raw++ = four.y, *out.raw++ = four.z, *out.raw++ = four.w;
    const float4 u4 = curand_uniform4(&p);
    *out.uniforms++ = u4.x, *out.uniforms++ = u4.y, *out.uniforms++ = u4.z, *out.uniforms++ = u4.w;
    const double2 u2d = curand_uniform2_double(&p);
    *out.uniforms_double++ = u2d.x, *out.uniforms_double++ = u2d.y;
    const auto u4d = curand_uniform4_double(&p);  // a double4, which CUDA 13 deprecates by name
    *out.uniforms_double++ = u4d.x, *out.uniforms_double++ = u4d.y, *out.uniforms_double++ = u4d.z, *out.uniforms_double++ = u4d.w;
    const float4 n4 = curand_normal4(&p);
    *out.normals++ = n4.x, *out.normals++ = n4.y, *out.normals++ = n4.z, *out.normals++ = n4.w;
    const float4 l4 = curand_log_normal4(&p, 0.25f, 0.5f);
    *out.normals++ = l4.x, *out.normals++ = l4.y, *out.normals++ = l4.z, *out.normals++ = l4.w;
    const auto n4d = curand_normal4_double(&p);
    *out.normals_double++ = n4d.x, *out.normals_double++ = n4d.y, *out.normals_double++ = n4d.z, *out.normals_double++ = n4d.w;
    const auto l4d = curand_log_normal4_double(&p, 0.25, 0.5);
    *out.normals_double++ = l4d.x, *out.normals_double++ = l4d.y, *out.normals_double++ = l4d.z, *out.normals_double++ = l4d.w;
    const uint4 c4 = curand_poisson4(&p, 7.5);
    *out.counts++ = c4.x, *out.counts++ = c4.y, *out.counts++ = c4.z, *out.counts++ = c4.w;

    curandStateMRG32k3a_t m;
    curand_init(seed, i, offset, &m);
    skipahead_sequence(1, &m);
    *out.raw++ = curand(&m);

    curandStateSobol32_t q;
    curand_init(const_cast<unsigned*>(directions), 3u * i, &q);
    for (int k = 0; k < 4; ++k) *out.raw++ = curand(&q);
    for (int k = 0; k < 2; ++k) *out.uniforms++ = curand_uniform(&q);
    *out.uniforms_double++ = curand_uniform_double(&q);
    for (int k = 0; k < 2; ++k) *out.normals++ = curand_normal(&q);
    *out.normals++ = curand_log_normal(&q, 0.5f, 0.75f);
    for (int k = 0; k < 2; ++k) *out.normals_double++ = curand_normal_double(&q);
    *out.normals_double++ = curand_log_normal_double(&q, 0.5, 0.75);
}

// Thread (or index) i's draws. Offsets of a few draws, and now and then a large one (2^34 i).
template <class Unused>
__host__ __device__ void draw_thread(const long long* seeds, const unsigned* directions, unsigned* raw, float* uniforms,
                                     double* uniforms_double, float* normals, double* normals_double, unsigned* counts, int i) {
    Slots out = {raw + 24 * i, uniforms + 15 * i, uniforms_double + 16 * i, normals + 35 * i, normals_double + 35 * i, counts + 13 * i};
    const unsigned long long seed = static_cast<unsigned long long>(seeds[0]);
    const unsigned long long offset = i % 4 == 3 ? static_cast<unsigned long long>(i) << 34 : 7ull * i + 1;
    draw_generator<curandStateXORWOW_t>(seed, i, offset, out);
    draw_generator<curandStatePhilox4_32_10_t>(seed, i, offset, out);
    draw_generator<curandStateMRG32k3a_t>(seed, i, offset, out);
    draw_extras<void>(seed, i, offset, directions, out);
}

__global__ void draws(const long long* seeds, const unsigned* directions, unsigned* raw, float* uniforms, double* uniforms_double,
                      float* normals, double* normals_double, unsigned* counts, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) draw_thread<void>(seeds, directions, raw, uniforms, uniforms_double, normals, normals_double, counts, i);
}

#ifdef KPLAY_REFERENCE
void kplay_reference(const long long* seeds, const unsigned* directions, unsigned* raw, float* uniforms, double* uniforms_double,
                     float* normals, double* normals_double, unsigned* counts, int n) {
    for (int i = 0; i < n; ++i) draw_thread<void>(seeds, directions, raw, uniforms, uniforms_double, normals, normals_double, counts, i);
}
#endif
