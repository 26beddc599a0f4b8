// cuRAND's device API on the emulated device and in a host reference (runtime/emu/include/curand_kernel.h,
// the toolkit's own headers built by the host compiler). The generators are held to their published
// definitions, computed here from scratch: Philox4x32-10 (Salmon et al. 2011) against Random123's
// known-answer vectors, Marsaglia's xorwow recurrence, L'Ecuyer's MRG32k3a recurrence, and the first
// Sobol dimension; the subsequence and offset jumps of curand_init against transition matrices raised
// to 2^67 and 2^76 here. Then every draw of tests/data/curand/draws.cu, kernel against host reference,
// bit for bit; the same file through the engine; and MTGP32's refusal by name.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/guarded_memory.hpp"
#include "emu_harness.hpp"
#include "reference/host_reference.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

using test::EmuKernel;
using u128 = unsigned __int128;

std::string curand_file(const std::string& name) { return test::read_file(test::data_dir() / "curand" / name); }

// ---- Philox4x32-10, from the paper: ten rounds of two 32x32->64 multiplies, the key bumped by the
// Weyl constants between rounds ------------------------------------------------------------------------
using Words4 = std::array<uint32_t, 4>;
Words4 philox4x32_10(Words4 c, std::array<uint32_t, 2> k) {
    for (int round = 0; round < 10; ++round) {
        if (round > 0) k = {k[0] + 0x9E3779B9u, k[1] + 0xBB67AE85u};
        const uint64_t p0 = uint64_t{0xD2511F53u} * c[0], p1 = uint64_t{0xCD9E8D57u} * c[2];
        c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1), static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1],
             static_cast<uint32_t>(p0)};
    }
    return c;
}

// Draw j after curand_init(seed, subsequence, offset): element offset + j of subsequence `subsequence`,
// whose counter is the 128-bit number subsequence * 2^64 + element / 4 (word element % 4 of its block),
// keyed by the seed: cuRAND's "2^66 draws per subsequence".
uint32_t philox_draw(uint64_t seed, uint64_t subsequence, uint64_t offset, uint64_t j) {
    const u128 element = u128{offset} + j, counter = (u128{subsequence} << 64) + (element >> 2);
    const Words4 words = philox4x32_10({static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32),
                                        static_cast<uint32_t>(counter >> 64), static_cast<uint32_t>(counter >> 96)},
                                       {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)});
    return words[static_cast<size_t>(element & 3)];
}

// ---- xorwow: five words of xorshift and a Weyl sequence (Marsaglia 2003) ----------------------------
struct Xorwow {
    uint32_t d;
    std::array<uint32_t, 5> v;
    uint32_t next() {
        const uint32_t t = v[0] ^ (v[0] >> 2);
        v = {v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))};
        d += 362437;
        return v[4] + d;
    }
};

// The xorshift part is linear over GF(2): a 160x160 bit matrix, row i a 160-bit mask of the state.
using Bits160 = std::array<uint64_t, 3>;
using BitMatrix = std::array<Bits160, 160>;
bool bit(const Bits160& b, int i) { return (b[static_cast<size_t>(i / 64)] >> (i % 64)) & 1; }
Bits160 pack(const std::array<uint32_t, 5>& v) {
    Bits160 b{};
    for (int i = 0; i < 160; ++i)
        if ((v[static_cast<size_t>(i / 32)] >> (i % 32)) & 1) b[static_cast<size_t>(i / 64)] |= uint64_t{1} << (i % 64);
    return b;
}
std::array<uint32_t, 5> unpack(const Bits160& b) {
    std::array<uint32_t, 5> v{};
    for (int i = 0; i < 160; ++i)
        if (bit(b, i)) v[static_cast<size_t>(i / 32)] |= 1u << (i % 32);
    return v;
}
BitMatrix multiply(const BitMatrix& a, const BitMatrix& b) {
    BitMatrix c{};
    for (int i = 0; i < 160; ++i)
        for (int j = 0; j < 160; ++j)
            if (bit(a[static_cast<size_t>(i)], j))
                for (int w = 0; w < 3; ++w) c[static_cast<size_t>(i)][static_cast<size_t>(w)] ^= b[static_cast<size_t>(j)][static_cast<size_t>(w)];
    return c;
}
BitMatrix xorwow_step_matrix() {
    BitMatrix m{};
    for (int j = 0; j < 160; ++j) {  // column j: the step applied to unit vector j
        Bits160 unit{};
        unit[static_cast<size_t>(j / 64)] = uint64_t{1} << (j % 64);
        Xorwow x{0, unpack(unit)};
        x.next();
        const Bits160 column = pack(x.v);
        for (int i = 0; i < 160; ++i)
            if (bit(column, i)) m[static_cast<size_t>(i)][static_cast<size_t>(j / 64)] |= uint64_t{1} << (j % 64);
    }
    return m;
}
BitMatrix power(BitMatrix base, u128 exponent) {
    BitMatrix result{};
    for (int i = 0; i < 160; ++i) result[static_cast<size_t>(i)][static_cast<size_t>(i / 64)] = uint64_t{1} << (i % 64);
    for (; exponent; exponent >>= 1, base = multiply(base, base))
        if (exponent & 1) result = multiply(result, base);
    return result;
}
Bits160 times(const BitMatrix& m, const Bits160& v) {
    Bits160 r{};
    for (int i = 0; i < 160; ++i) {
        const bool one = (__builtin_popcountll(m[static_cast<size_t>(i)][0] & v[0]) + __builtin_popcountll(m[static_cast<size_t>(i)][1] & v[1]) +
                          __builtin_popcountll(m[static_cast<size_t>(i)][2] & v[2])) & 1;
        if (one) r[static_cast<size_t>(i / 64)] |= uint64_t{1} << (i % 64);
    }
    return r;
}

// ---- MRG32k3a: two multiple recursive generators mod m1 and m2 (L'Ecuyer 1999) -----------------------
constexpr uint64_t kM1 = 4294967087u, kM2 = 4294944443u;
using Matrix3 = std::array<std::array<uint64_t, 3>, 3>;
using Words3 = std::array<uint64_t, 3>;
// x1[n] = 1403580 x1[n-2] - 810728 x1[n-3] and x2[n] = 527612 x2[n-1] - 1370589 x2[n-3], on the state
// (x[n-3], x[n-2], x[n-1]).
const Matrix3 kA1 = {{{0, 1, 0}, {0, 0, 1}, {kM1 - 810728, 1403580, 0}}};
const Matrix3 kA2 = {{{0, 1, 0}, {0, 0, 1}, {kM2 - 1370589, 0, 527612}}};
Matrix3 multiply(const Matrix3& a, const Matrix3& b, uint64_t m) {
    Matrix3 c{};
    for (size_t i = 0; i < 3; ++i)
        for (size_t j = 0; j < 3; ++j) {
            u128 sum = 0;
            for (size_t k = 0; k < 3; ++k) sum += u128{a[i][k]} * b[k][j];
            c[i][j] = static_cast<uint64_t>(sum % m);
        }
    return c;
}
Matrix3 power(Matrix3 base, u128 exponent, uint64_t m) {
    Matrix3 result = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    for (; exponent; exponent >>= 1, base = multiply(base, base, m))
        if (exponent & 1) result = multiply(result, base, m);
    return result;
}
Words3 times(const Matrix3& a, const Words3& v, uint64_t m) {
    Words3 r{};
    for (size_t i = 0; i < 3; ++i) r[i] = static_cast<uint64_t>((u128{a[i][0]} * v[0] + u128{a[i][1]} * v[1] + u128{a[i][2]} * v[2]) % m);
    return r;
}
// One step: the new state and the output z in [1, m1] (m1 where the two components are equal).
uint64_t mrg_next(Words3& s1, Words3& s2) {
    s1 = times(kA1, s1, kM1);
    s2 = times(kA2, s2, kM2);
    return s1[2] > s2[2] ? s1[2] - s2[2] : s1[2] + kM1 - s2[2];
}

// ---- the cases the states kernel starts its generators at ---------------------------------------------
struct Case {
    uint64_t seed, subsequence, offset;
};
const std::vector<Case> kCases = {{0x0123456789abcdefull, 0, 0},  {0x0123456789abcdefull, 1, 0},  {0x0123456789abcdefull, 3, 17},
                                  {0x0123456789abcdefull, 0, 1000}, {0x0123456789abcdefull, 2, (1ull << 40) + 5}, {42, 0, 0},
                                  {42, 5, 3},                       {0, 0, 0},                      {~0ull, 7, 123456789},
                                  {~0ull, 0, 0}};
constexpr int kWordsPerCase = 28, kRealsPerCase = 8;

struct CaseDraws {
    std::vector<uint32_t> words;
    std::vector<double> reals;
};
CaseDraws run_states_kernel() {
    CaseDraws draws;
    EmuKernel kernel(curand_file("known_answers.cu"), "states");
    EXPECT_TRUE(kernel.built()) << kernel.diagnostics();
    if (!kernel.built()) return draws;
    const int count = static_cast<int>(kCases.size());
    uint64_t* cases = kernel.buffer<uint64_t>("cases", 3 * kCases.size());
    for (size_t c = 0; c < kCases.size(); ++c) {
        cases[3 * c] = kCases[c].seed;
        cases[3 * c + 1] = kCases[c].subsequence;
        cases[3 * c + 2] = kCases[c].offset;
    }
    uint32_t* words = kernel.buffer<uint32_t>("words", kWordsPerCase * kCases.size());
    double* reals = kernel.buffer<double>("reals", kRealsPerCase * kCases.size());
    EmuKernel::Launch launch;
    launch.block = {static_cast<unsigned>(count), 1, 1};
    const EmulatedLaunchResult result = kernel.launch({&cases, &words, &reals, const_cast<int*>(&count)}, launch);
    EXPECT_TRUE(result.ok) << result.error;
    draws.words.assign(words, words + kWordsPerCase * kCases.size());
    draws.reals.assign(reals, reals + kRealsPerCase * kCases.size());
    return draws;
}
const CaseDraws& states_kernel_draws() {
    static const CaseDraws draws = run_states_kernel();
    return draws;
}
// The case that starts `c`'s seed at subsequence 0, offset 0: where the jumps are measured from.
size_t base_case(size_t c) {
    for (size_t b = 0; b < kCases.size(); ++b)
        if (kCases[b].seed == kCases[c].seed && kCases[b].subsequence == 0 && kCases[b].offset == 0) return b;
    ADD_FAILURE() << "no base case for case " << c;
    return c;
}

TEST(EmuCurand, OurPhiloxMatchesRandom123sKnownAnswerVectors) {
    // Random123's kat_vectors, philox4x32 with 10 rounds: counter, key -> output.
    EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}), (Words4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
    EXPECT_EQ(philox4x32_10({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}), (Words4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
    EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
              (Words4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(EmuCurand, PhiloxDrawsAreTheCounterBasedFunctionAtSubsequenceAndOffset) {
    const CaseDraws& draws = states_kernel_draws();
    ASSERT_EQ(draws.words.size(), kWordsPerCase * kCases.size());
    // curand_init(0, 0, 0): the first known-answer vector itself.
    const size_t zero = 7;
    ASSERT_EQ(kCases[zero].seed, 0u);
    EXPECT_EQ(draws.words[kWordsPerCase * zero], 0x6627e8d5u);
    EXPECT_EQ(draws.words[kWordsPerCase * zero + 3], 0x9b00dbd8u);
    for (size_t c = 0; c < kCases.size(); ++c)
        for (uint64_t j = 0; j < 8; ++j)
            EXPECT_EQ(draws.words[kWordsPerCase * c + j], philox_draw(kCases[c].seed, kCases[c].subsequence, kCases[c].offset, j))
                << "case " << c << ", draw " << j;
}

TEST(EmuCurand, XorwowStepsAsMarsagliaDefinesAndJumps2To67DrawsPerSubsequence) {
    const CaseDraws& draws = states_kernel_draws();
    ASSERT_EQ(draws.words.size(), kWordsPerCase * kCases.size());
    const BitMatrix step = xorwow_step_matrix();
    const BitMatrix subsequence = power(step, u128{1} << 67);
    auto state_of = [&](size_t c) {
        const uint32_t* w = &draws.words[kWordsPerCase * c + 8];
        return Xorwow{w[0], {w[1], w[2], w[3], w[4], w[5]}};
    };
    for (size_t c = 0; c < kCases.size(); ++c) {
        SCOPED_TRACE("case " + std::to_string(c));
        Xorwow x = state_of(c);
        for (int j = 0; j < 8; ++j) EXPECT_EQ(draws.words[kWordsPerCase * c + 14 + static_cast<size_t>(j)], x.next()) << "draw " << j;
        // The jump: 2^67 subsequence + offset steps of the linear part; the Weyl sequence moves by
        // 362437 per step, and 2^67 steps of it are whole turns of 2^32.
        const Xorwow base = state_of(base_case(c)), jumped = state_of(c);
        const BitMatrix jump = multiply(power(subsequence, kCases[c].subsequence), power(step, kCases[c].offset));
        EXPECT_EQ(jumped.v, unpack(times(jump, pack(base.v))));
        EXPECT_EQ(jumped.d, static_cast<uint32_t>(base.d + 362437ull * kCases[c].offset));
    }
}

TEST(EmuCurand, Mrg32k3aStepsAsLEcuyerDefinesAndJumps2To76DrawsPerSubsequence) {
    const CaseDraws& draws = states_kernel_draws();
    ASSERT_EQ(draws.reals.size(), kRealsPerCase * kCases.size());
    auto state_of = [&](size_t c, Words3& s1, Words3& s2) {
        const uint32_t* w = &draws.words[kWordsPerCase * c + 22];
        s1 = {w[0], w[1], w[2]};
        s2 = {w[3], w[4], w[5]};
    };
    for (size_t c = 0; c < kCases.size(); ++c) {
        SCOPED_TRACE("case " + std::to_string(c));
        Words3 s1, s2;
        state_of(c, s1, s2);
        // curand_uniform_double is the output z in [1, m1] over m1: (0, 1].
        for (size_t j = 0; j < 8; ++j) {
            const double expected = static_cast<double>(mrg_next(s1, s2)) / static_cast<double>(kM1);
            EXPECT_NEAR(draws.reals[kRealsPerCase * c + j], expected, 1e-15 * expected) << "draw " << j;
        }
        Words3 b1, b2, j1, j2;
        state_of(base_case(c), b1, b2);
        state_of(c, j1, j2);
        const u128 steps = (u128{kCases[c].subsequence} << 76) + kCases[c].offset;
        EXPECT_EQ(j1, times(power(kA1, steps, kM1), b1, kM1));
        EXPECT_EQ(j2, times(power(kA2, steps, kM2), b2, kM2));
    }
}

TEST(EmuCurand, Mrg32k3aFromLEcuyersExampleSeedGivesTheRecurrencesFirstOutputs) {
    EmuKernel kernel(curand_file("known_answers.cu"), "lecuyer");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    double* out = kernel.buffer<double>("out", 4, -1.0);
    ASSERT_TRUE(kernel.launch({&out}, {}).ok);
    // By hand from the recurrences with all six seeds 12345: x1 = 592852 * 12345 mod m1 = 3023790853,
    // x2 = -842977 * 12345 mod m2 = 2478282264, z = x1 - x2 = 545508589, over m1.
    EXPECT_NEAR(out[0], 545508589.0 / static_cast<double>(kM1), 1e-16);
    Words3 s1 = {12345, 12345, 12345}, s2 = s1;
    for (int k = 0; k < 4; ++k) {
        const double z = static_cast<double>(mrg_next(s1, s2));
        EXPECT_NEAR(out[k], z / static_cast<double>(kM1), 1e-15) << "draw " << k;
    }
}

TEST(EmuCurand, SobolsFirstDimensionIsVanDerCorputInGrayCodeOrder) {
    EmuKernel kernel(curand_file("known_answers.cu"), "sobol");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    uint32_t* out = kernel.buffer<uint32_t>("out", 16, 7);
    ASSERT_TRUE(kernel.launch({&out}, {}).ok);
    auto reversed = [](uint32_t v) {
        uint32_t r = 0;
        for (int b = 0; b < 32; ++b) r |= ((v >> b) & 1u) << (31 - b);
        return r;
    };
    for (uint32_t k = 0; k < 8; ++k) {
        EXPECT_EQ(out[k], reversed(k ^ (k >> 1))) << "point " << k;  // 0, 1/2, 3/4, 1/4, 3/8, ...
        EXPECT_EQ(out[8 + k], reversed((5 + k) ^ ((5 + k) >> 1))) << "point " << 5 + k;
    }
}

// ---- every draw of draws.cu, kernel against host reference ---------------------------------------------
// The buffers of draws.cu (its kplay-buffer lines), per thread.
struct DrawBuffer {
    const char* name;
    size_t per_thread, element;
};
const DrawBuffer kDrawBuffers[] = {{"raw", 24, 4}, {"uniforms", 15, 4}, {"uniforms_double", 16, 8}, {"normals", 35, 4}, {"normals_double", 35, 8}, {"counts", 13, 4}};
constexpr int kThreads = 300;

// One set of draws.cu's buffers: its inputs filled, its outputs poisoned, and the argument pointers.
struct DrawSet {
    std::vector<GuardedBuffer> memory;
    std::vector<BufferLabel> labels;
    std::vector<void*> pointers;
    int n = kThreads;
    explicit DrawSet(int64_t seed) {
        add("seeds", 1, 8);
        std::memcpy(memory.back().data(), &seed, sizeof seed);
        add("directions", 32, 4);
        for (uint32_t k = 0; k < 32; ++k) {
            const uint32_t direction = 0x9e3779b9u * (k + 1) | 1u;
            std::memcpy(memory.back().data() + 4 * k, &direction, 4);
        }
        for (const DrawBuffer& buffer : kDrawBuffers) {
            add(buffer.name, buffer.per_thread * kThreads, buffer.element);
            std::memset(memory.back().data(), 0xa5, memory.back().size());
        }
    }
    std::vector<void*> args() {
        std::vector<void*> all;
        for (void*& pointer : pointers) all.push_back(&pointer);
        all.push_back(&n);
        return all;
    }
    const unsigned char* output(size_t i) const { return memory[i + 2].data(); }

private:
    void add(const char* name, size_t count, size_t element) {
        memory.emplace_back(count * element);
        labels.push_back({name, "element", element, reinterpret_cast<uintptr_t>(memory.back().data()), count * element,
                          memory.back().mapping_begin(), memory.back().mapping_end()});
        pointers.push_back(memory.back().data());
    }
};

EmulatedLaunchResult call_reference(const std::string& source, DrawSet& set, const test::TempDir& dir) {
    HostReferenceBuildRequest build;
    build.source = source;
    build.source_path = dir.write("curand/draws.cu", source).string();
    build.emu_include_dir = emulated_include_dir();
    build.cache_dir = dir.path() / "cache";
    const HostReferenceObject object = build_host_reference(build);
    if (!object.ok) {
        EmulatedLaunchResult failed;
        failed.error = "the reference did not build:\n" + object.diagnostics;
        return failed;
    }
    EmulatedCallRequest call;
    call.shared_object = object.shared_object;
    call.entry_symbol = host_reference_entry_symbol();
    call.bind_symbol = host_reference_bind_symbol();
    call.args = set.args();
    call.buffers = set.labels;
    call.timeout_s = 60;
    return run_emulated_call(call);
}

TEST(EmuCurand, EveryDrawOfTheKernelIsTheHostReferencesBitForBit) {
    const std::string source = curand_file("draws.cu");
    EmuKernel kernel(source, "draws");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    DrawSet on_device(987654321), on_host(987654321);
    EmuKernel::Launch launch;
    launch.grid = {(kThreads + 63) / 64, 1, 1};
    launch.block = {64, 1, 1};
    launch.timeout_s = 60;
    const EmulatedLaunchResult launched = kernel.launch(on_device.args(), launch);  // into the set's buffers
    ASSERT_TRUE(launched.ok) << launched.error;
    test::TempDir dir;
    const EmulatedLaunchResult referenced = call_reference(source, on_host, dir);
    ASSERT_TRUE(referenced.ok) << referenced.error;
    for (size_t b = 0; b < std::size(kDrawBuffers); ++b) {
        const DrawBuffer& buffer = kDrawBuffers[b];
        const size_t bytes = buffer.per_thread * kThreads * buffer.element;
        const unsigned char *got = on_device.output(b), *expected = on_host.output(b);
        size_t first = bytes;
        for (size_t i = 0; i < bytes && first == bytes; ++i)
            if (got[i] != expected[i]) first = i;
        EXPECT_EQ(first, bytes) << buffer.name << " differs first at element " << first / buffer.element;
    }
    // What the draws must be whatever computed them: a skip-ahead equals curand_init's jump, uniforms lie
    // in (0, 1], and not every Poisson count is the same.
    const auto* raw = reinterpret_cast<const uint32_t*>(on_device.output(0));
    const auto* uniforms = reinterpret_cast<const float*>(on_device.output(1));
    for (int i = 0; i < kThreads; ++i)
        for (int g = 0; g < 3; ++g) EXPECT_EQ(raw[24 * i + 5 * g + 4], raw[24 * i + 5 * g]) << "thread " << i << ", generator " << g;
    for (int i = 0; i < 15 * kThreads; ++i) EXPECT_TRUE(uniforms[i] > 0.0f && uniforms[i] <= 1.0f) << i;
}

TEST(EmuCurand, TheDrawsTaskPassesThroughTheEngine) {
    RunRequest request;
    request.kernel_path = test::data_dir() / "curand" / "draws.cu";
    request.emulate = true;
    request.warmup = 0;
    request.repeat = 1;
    request.measure_ceiling = false;
    request.emulation_timeout_s = 60;
    request.emulation_track = false;  // a second host build of a large kernel, for races it cannot have
    const RunReport report = test::scratch_engine().run(request);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

TEST(EmuCurand, Mtgp32IsRefusedByNameOnTheDeviceAndInAReference) {
    const std::string source = R"(#include <curand_kernel.h>
__global__ void k(curandStateMtgp32_t* state, unsigned* out) { out[threadIdx.x] = curand(state); }
#ifdef KPLAY_REFERENCE
void kplay_reference(curandStateMtgp32_t* state, unsigned* out) {}
#endif
)";
    EmuKernel kernel(source);
    EXPECT_FALSE(kernel.built());
    EXPECT_NE(kernel.diagnostics().find("curandStateMtgp32_t (cuRAND's MTGP32 generator) is not supported on the emulated CPU device"),
              std::string::npos)
        << kernel.diagnostics();
    test::TempDir dir;
    HostReferenceBuildRequest build;
    build.source = source;
    build.source_path = dir.write("mtgp.cu", source).string();
    build.emu_include_dir = emulated_include_dir();
    build.cache_dir = dir.path();
    const HostReferenceObject object = build_host_reference(build);
    EXPECT_FALSE(object.ok);
    EXPECT_NE(object.diagnostics.find("is not supported in a host reference"), std::string::npos) << object.diagnostics;
}

}  // namespace
}  // namespace kplay
