// The 16- and 8-bit floating-point types on the emulated device (and in host references), against an
// oracle written here from the formats' definitions alone: every finite value of a format listed by
// code, a value rounded to the nearest (ties to the even code) or in a directed mode by search, with
// the value past the largest finite one standing for overflow. Conversions are checked at every half
// and bfloat16 value, at every midpoint between neighbours and just beside it, at fp8's every code, and
// on wide-ranging random floats; arithmetic against the exact result rounded once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "emu_harness.hpp"
#include "run/engine.hpp"

namespace kplay {
namespace {

using test::EmuKernel;

// ---- the oracle -------------------------------------------------------------------------------------
struct Format {
    int exponent_bits, mantissa_bits;
    bool has_infinity;      // IEEE-like: the top exponent is infinity and NaN (half, bfloat16, e5m2); else only the top code is NaN (e4m3)
    unsigned nan_encoding;  // what a conversion of NaN gives
};
const Format kHalf{5, 10, true, 0x7fff}, kBf16{8, 7, true, 0x7fff}, kE4M3{4, 3, false, 0x7f}, kE5M2{5, 2, true, 0x7f};

unsigned sign_bit(const Format& f) { return 1u << (f.exponent_bits + f.mantissa_bits); }
unsigned largest_finite(const Format& f) {
    return f.has_infinity ? (((1u << f.exponent_bits) - 1) << f.mantissa_bits) - 1 : sign_bit(f) - 2;
}
// The magnitude of a non-NaN code without its sign; the code one past the largest finite is the
// virtual next value (2^(emax+1) in IEEE formats, what 0x7f would be in e4m3).
double magnitude_of(const Format& f, unsigned code) {
    const int bias = (1 << (f.exponent_bits - 1)) - 1;
    const unsigned exponent = code >> f.mantissa_bits, fraction = code & ((1u << f.mantissa_bits) - 1);
    if (exponent == 0) return std::ldexp(fraction, 1 - bias - f.mantissa_bits);
    return std::ldexp((1u << f.mantissa_bits) + fraction, static_cast<int>(exponent) - bias - f.mantissa_bits);
}
bool is_nan_code(const Format& f, unsigned code) {
    const unsigned magnitude = code & (sign_bit(f) - 1);
    return f.has_infinity ? magnitude > largest_finite(f) + 1 : magnitude == sign_bit(f) - 1;
}
double value_of(const Format& f, unsigned code) {
    if (is_nan_code(f, code)) return NAN;
    const unsigned magnitude = code & (sign_bit(f) - 1);
    const double v = f.has_infinity && magnitude == largest_finite(f) + 1 ? INFINITY : magnitude_of(f, magnitude);
    return code & sign_bit(f) ? -v : v;
}

enum Mode { nearest, toward_zero, up, down };
// `x` rounded into f. Overflow: to infinity, or with `saturate` to the largest finite (fp8's SATFINITE;
// e4m3 without it gives NaN); a directed mode that points toward zero stops at the largest finite.
unsigned round_into(const Format& f, double x, Mode mode, bool saturate = false) {
    if (std::isnan(x)) return f.nan_encoding;
    const unsigned sign = std::signbit(x) ? sign_bit(f) : 0;
    const double a = std::fabs(x);
    const unsigned top = largest_finite(f);
    // below: the largest code whose magnitude is <= a (among 0..top+1).
    unsigned lo = 0, hi = top + 1;
    if (a >= magnitude_of(f, top + 1) || std::isinf(a)) {
        lo = top + 1;
    } else {
        while (hi - lo > 1) {
            const unsigned mid = (lo + hi) / 2;
            (magnitude_of(f, mid) <= a ? lo : hi) = mid;
        }
    }
    unsigned code = lo;
    const bool exact = lo <= top + 1 && magnitude_of(f, lo) == a;
    if (!exact && lo <= top) {
        const double below = magnitude_of(f, lo), above = magnitude_of(f, lo + 1);
        const bool away = (mode == up && !sign) || (mode == down && sign);
        if (mode == nearest) code = a - below > above - a || (a - below == above - a && (lo & 1)) ? lo + 1 : lo;
        else code = away ? lo + 1 : lo;
    }
    if (code > top) {
        const bool toward = mode == toward_zero || (mode == up && sign) || (mode == down && !sign);
        if (saturate || (f.has_infinity && toward)) code = top;
        else code = f.has_infinity ? top + 1 : f.nan_encoding;
    }
    return code | sign;
}

// ---- the inputs ---------------------------------------------------------------------------------------
unsigned bits_of(float x) {
    unsigned b;
    std::memcpy(&b, &x, 4);
    return b;
}
// Every value of a format, the midpoints between neighbours and the floats just beside them.
void add_values_and_midpoints(const Format& f, std::vector<float>& into, unsigned step = 1) {
    for (unsigned code = 0; code <= largest_finite(f); code += step)
        for (float sign : {1.0f, -1.0f}) {
            const float v = static_cast<float>(magnitude_of(f, code)) * sign;
            const float mid = static_cast<float>((magnitude_of(f, code) + magnitude_of(f, code + 1)) / 2) * sign;
            into.insert(into.end(), {v, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 2 * mid)});
        }
}
std::vector<float> conversion_inputs() {
    std::vector<float> inputs = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-45f, 65504.0f, 65519.99f, 65520.0f, 448.0f, 464.0f,
                                 464.01f, 57344.0f, 61439.0f, 61440.0f, 3.4e38f, -3.4e38f};
    add_values_and_midpoints(kHalf, inputs);
    add_values_and_midpoints(kBf16, inputs, 7);
    add_values_and_midpoints(kE4M3, inputs);
    add_values_and_midpoints(kE5M2, inputs);
    std::mt19937 random(3);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    std::uniform_int_distribution<int> exponent(-140, 40);
    for (int i = 0; i < 20000; ++i) inputs.push_back(std::ldexp(mantissa(random), exponent(random)) * (i % 2 ? -1.0f : 1.0f));
    return inputs;
}

TEST(EmuNumericTypes, ConversionsIntoHalfBfloat16AndFp8RoundExactly) {
    EmuKernel kernel(R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
__global__ void k(const float* in, unsigned* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float x = in[i];
    unsigned* o = out + i * 9;
    o[0] = __half_as_ushort(__float2half(x));
    o[1] = __half_as_ushort(__float2half_rz(x));
    o[2] = __half_as_ushort(__float2half_ru(x));
    o[3] = __half_as_ushort(__float2half_rd(x));
    o[4] = __bfloat16_as_ushort(__float2bfloat16(x));
    o[5] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    o[6] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
    o[7] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
    o[8] = __nv_fp8_e5m2(x).__x | (__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2) << 8);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const std::vector<float> inputs = conversion_inputs();
    const int n = static_cast<int>(inputs.size());
    float* in = kernel.buffer<float>("in", inputs.size(), 0.0f);
    std::copy(inputs.begin(), inputs.end(), in);
    unsigned* out = kernel.buffer<unsigned>("out", inputs.size() * 9, 0u);
    EmuKernel::Launch launch;
    launch.grid = {static_cast<unsigned>((n + 255) / 256), 1, 1};
    launch.block = {256, 1, 1};
    const auto result = kernel.launch({&in, &out, const_cast<int*>(&n)}, launch);
    ASSERT_TRUE(result.ok) << result.error;
    int failures = 0;
    for (int i = 0; i < n && failures < 20; ++i) {
        const float x = inputs[i];
        const unsigned expected[9] = {round_into(kHalf, x, nearest),
                                      round_into(kHalf, x, toward_zero),
                                      round_into(kHalf, x, up),
                                      round_into(kHalf, x, down),
                                      round_into(kBf16, x, nearest),
                                      std::isnan(x) ? 0x7fu : round_into(kE4M3, x, nearest, true),
                                      std::isnan(x) ? 0x7fu : round_into(kE4M3, x, nearest, false),
                                      std::isnan(x) ? 0x7fu : round_into(kE5M2, x, nearest, true),
                                      (std::isnan(x) ? 0x7fu : round_into(kE5M2, x, nearest, true)) |
                                          ((std::isnan(x) ? 0x7fu : round_into(kE5M2, x, nearest, false)) << 8)};
        for (int k = 0; k < 9; ++k)
            if (out[i * 9 + k] != expected[k]) {
                ++failures;
                ADD_FAILURE() << "conversion " << k << " of " << x << " (bits 0x" << std::hex << bits_of(x) << "): got 0x" << out[i * 9 + k]
                              << ", expected 0x" << expected[k] << std::dec;
            }
    }
}

TEST(EmuNumericTypes, EveryHalfAndBfloat16ValueConvertsBackExactly) {
    EmuKernel kernel(R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(float* from_half, float* from_bf16) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    from_half[i] = __half2float(__ushort_as_half((unsigned short)i));
    from_bf16[i] = (float)__ushort_as_bfloat16((unsigned short)i);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    float* from_half = kernel.buffer<float>("from_half", 65536, 0.0f);
    float* from_bf16 = kernel.buffer<float>("from_bf16", 65536, 0.0f);
    EmuKernel::Launch launch;
    launch.grid = {256, 1, 1};
    launch.block = {256, 1, 1};
    const auto result = kernel.launch({&from_half, &from_bf16}, launch);
    ASSERT_TRUE(result.ok) << result.error;
    for (unsigned code = 0; code < 65536; ++code) {
        for (const auto& [format, got] : {std::make_pair(kHalf, from_half[code]), std::make_pair(kBf16, from_bf16[code])}) {
            const double expected = value_of(format, code);
            if (std::isnan(expected)) ASSERT_TRUE(std::isnan(got)) << "code 0x" << std::hex << code;
            else ASSERT_EQ(bits_of(got), bits_of(static_cast<float>(expected))) << "code 0x" << std::hex << code;
        }
    }
}

TEST(EmuNumericTypes, Fp8DequantisesEveryCodeOfBothKinds) {
    // y = fp8 value x the scale of its group of 32, as a quantised layer's weights are read back.
    EmuKernel kernel(R"(
#include <cuda_fp8.h>
__global__ void k(const unsigned char* q, const float* scales, float* e4m3, float* e5m2, __half* as_half) {
    const int i = threadIdx.x;
    __nv_fp8_e4m3 a;
    a.__x = q[i];
    __nv_fp8_e5m2 b;
    b.__x = q[i];
    e4m3[i] = static_cast<float>(a) * scales[i / 32];
    e5m2[i] = static_cast<float>(b) * scales[i / 32];
    as_half[i] = __half(__nv_cvt_fp8_to_halfraw(q[i], __NV_E4M3));
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    unsigned char* q = kernel.buffer<unsigned char>("q", 256, 0);
    for (int i = 0; i < 256; ++i) q[i] = static_cast<unsigned char>(i);
    float* scales = kernel.buffer<float>("scales", 8, 0.0f);
    for (int g = 0; g < 8; ++g) scales[g] = 0.25f * (g + 1);
    float* e4m3 = kernel.buffer<float>("e4m3", 256, 0.0f);
    float* e5m2 = kernel.buffer<float>("e5m2", 256, 0.0f);
    unsigned short* as_half = kernel.buffer<unsigned short>("as_half", 256, 0);
    EmuKernel::Launch launch;
    launch.block = {256, 1, 1};
    const auto result = kernel.launch({&q, &scales, &e4m3, &e5m2, &as_half}, launch);
    ASSERT_TRUE(result.ok) << result.error;
    for (unsigned code = 0; code < 256; ++code) {
        SCOPED_TRACE("code " + std::to_string(code));
        const double a = value_of(kE4M3, code), b = value_of(kE5M2, code), scale = scales[code / 32];
        if (std::isnan(a)) EXPECT_TRUE(std::isnan(e4m3[code]));
        else EXPECT_EQ(e4m3[code], static_cast<float>(a * scale));
        if (std::isnan(b)) EXPECT_TRUE(std::isnan(e5m2[code]));
        else EXPECT_EQ(e5m2[code], static_cast<float>(b * scale));
        EXPECT_EQ(as_half[code], std::isnan(a) ? 0x7fffu : round_into(kHalf, a, nearest));
    }
}

TEST(EmuNumericTypes, HalfAndBfloat16ArithmeticRoundsTheExactResultOnce) {
    EmuKernel kernel(R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(const unsigned short* a, const unsigned short* b, const unsigned short* c, unsigned short* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short* o = out + i * 10;
    const __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    o[0] = __half_as_ushort(__hadd(x, y));
    o[1] = __half_as_ushort(x - y);
    o[2] = __half_as_ushort(__hmul(x, y));
    o[3] = __half_as_ushort(x / y);
    o[4] = __half_as_ushort(__hfma(x, y, z));
    const __half2 pair = __hfma2(__halves2half2(x, y), __halves2half2(y, x), __halves2half2(z, z));
    o[5] = __half_as_ushort(__low2half(pair));
    const __nv_bfloat16 p = __ushort_as_bfloat16(a[i]), q = __ushort_as_bfloat16(b[i]), r = __ushort_as_bfloat16(c[i]);
    o[6] = __bfloat16_as_ushort(__hadd(p, q));
    o[7] = __bfloat16_as_ushort(p * q);
    o[8] = __bfloat16_as_ushort(__hdiv(p, q));
    o[9] = __bfloat16_as_ushort(__hfma(p, q, r));
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    const int n = 64 * 256;
    unsigned short* a = kernel.buffer<unsigned short>("a", n, 0);
    unsigned short* b = kernel.buffer<unsigned short>("b", n, 0);
    unsigned short* c = kernel.buffer<unsigned short>("c", n, 0);
    unsigned short* out = kernel.buffer<unsigned short>("out", n * 10, 0);
    // Magnitudes between 2^-7 and 2^8 in both formats, so that the exact results fit a double.
    std::mt19937 random(9);
    std::uniform_int_distribution<unsigned> fraction(0, 0xffff), half_exponent(8, 22), bf16_exponent(120, 134);
    std::vector<unsigned short> halves(3 * n), bf16s(3 * n);
    for (int i = 0; i < 3 * n; ++i) {
        const unsigned bits = fraction(random);
        halves[i] = static_cast<unsigned short>((bits & 0x83ff) | (half_exponent(random) << 10));
        bf16s[i] = static_cast<unsigned short>((bits & 0x807f) | (bf16_exponent(random) << 7));
    }
    // The kernel reads the same bits as both types: give the half operations and the bfloat16 ones each
    // a run of their own.
    for (const Format* format : {&kHalf, &kBf16}) {
        const std::vector<unsigned short>& source = format == &kHalf ? halves : bf16s;
        std::copy(source.begin(), source.begin() + n, a);
        std::copy(source.begin() + n, source.begin() + 2 * n, b);
        std::copy(source.begin() + 2 * n, source.end(), c);
        EmuKernel::Launch launch;
        launch.grid = {64, 1, 1};
        launch.block = {256, 1, 1};
        const auto result = kernel.launch({&a, &b, &c, &out}, launch);
        ASSERT_TRUE(result.ok) << result.error;
        int failures = 0;
        for (int i = 0; i < n && failures < 20; ++i) {
            const double x = value_of(*format, a[i]), y = value_of(*format, b[i]), z = value_of(*format, c[i]);
            std::vector<std::pair<int, double>> checks;
            if (format == &kHalf) checks = {{0, x + y}, {1, x - y}, {2, x * y}, {3, x / y}, {4, x * y + z}, {5, x * y + z}};
            else checks = {{6, x + y}, {7, x * y}, {8, x / y}, {9, x * y + z}};
            for (const auto& [slot, exact] : checks)
                if (out[i * 10 + slot] != round_into(*format, exact, nearest)) {
                    ++failures;
                    ADD_FAILURE() << "operation " << slot << " of " << x << ", " << y << ", " << z << ": got 0x" << std::hex
                                  << out[i * 10 + slot] << ", expected 0x" << round_into(*format, exact, nearest) << std::dec;
                }
        }
    }
}

TEST(EmuNumericTypes, AnFp8DequantiseTaskMatchesItsHostReference) {
    // The reference rounds through the same types: its build reads cuda_fp8.h and cuda_bf16.h too.
    test::TempDir dir;
    EngineConfig config = default_engine_config();
    config.cache_dir = dir.path() / "cache";
    Engine engine(config);
    RunRequest request;
    request.kernel_path = dir.write("emu/fp8_dequantise.cu", test::emu_kernel("fp8_dequantise.cu"));
    request.emulate = true;
    request.emulation_timeout_s = 60;
    const RunReport report = engine.run(request);
    ASSERT_TRUE(report.ok()) << report.error << (report.compile.log.empty() ? "" : "\n" + report.compile.log);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

}  // namespace
}  // namespace kplay
