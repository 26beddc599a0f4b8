// What a kernel's own code reaches on the emulated device: the C headers and memcpy/NULL, CUDA's min and
// max overloads (in a kernel and in a __host__ __device__ helper that a host reference calls), the math
// functions CUDA adds, and the arithmetic, conversion, bit and SIMD intrinsics with their rounding modes.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>

#include "emu_harness.hpp"
#include "run/engine.hpp"

namespace kplay {
namespace {

using test::EmuKernel;

EmulatedLaunchResult run_one_block(const EmuKernel& kernel, std::vector<void*> args, unsigned threads = 1) {
    EmuKernel::Launch launch;
    launch.block = {threads, 1, 1};
    return kernel.launch(std::move(args), launch);
}

TEST(EmuPrelude, StdioMemcpyAndNullWork) {
    EmuKernel kernel(R"(
#include <stdio.h>
#include <string.h>
#include <cstdio>
#include <cstring>
#include <stdint.h>
__global__ void k(const float* in, float* out) {
    float local[4];
    memcpy(local, in + threadIdx.x * 4, sizeof local);
    memset(local + 3, 0, sizeof(float));
    const int* nothing = NULL;
    if (threadIdx.x == 1 && nothing == NULL) printf("copied %d floats, %u bytes\n", 3, (uint32_t)sizeof local);
    out[threadIdx.x] = local[0] + local[1] + local[2] + local[3];
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    float* in = kernel.buffer<float>("in", 8, 0.0f);
    for (int i = 0; i < 8; ++i) in[i] = static_cast<float>(i + 1);
    float* out = kernel.buffer<float>("out", 2, 0.0f);
    const auto result = run_one_block(kernel, {&in, &out}, 2);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(out[0], 1 + 2 + 3.0f);
    EXPECT_EQ(out[1], 5 + 6 + 7.0f);
    EXPECT_EQ(result.printf_lines, std::vector<std::string>{"[block (0,0,0) thread (1,0,0)] copied 3 floats, 16 bytes"});
}

TEST(EmuPrelude, MinAndMaxResolveAsCudasOverloadsDo) {
    // Each mix CUDA's math_functions.hpp accepts, with the type it returns; min(unsigned, int) compares
    // as unsigned, so -5 is larger than 20.
    EmuKernel kernel(R"kernel(
template <class A, class B> struct same { static const bool value = false; };
template <class A> struct same<A, A> { static const bool value = true; };
static_assert(same<decltype(min(1u, 1)), unsigned>::value, "min(unsigned, int)");
static_assert(same<decltype(max(1, 1u)), unsigned>::value, "max(int, unsigned)");
static_assert(same<decltype(min(1l, 1ul)), unsigned long>::value, "min(long, unsigned long)");
static_assert(same<decltype(max(1ll, 1ull)), unsigned long long>::value, "max(long long, unsigned long long)");
static_assert(same<decltype(min(1.0f, 1.0)), double>::value, "min(float, double)");
static_assert(same<decltype(max(1.0f, 1.0f)), float>::value, "max(float, float)");
static_assert(same<decltype(min(1, 1)), int>::value, "min(int, int)");
__global__ void k(const int* x, unsigned* out, int limit) {
    const unsigned bound = limit;
    int v = x[threadIdx.x];
    out[threadIdx.x] = min(bound, v) + 1000u * max(threadIdx.x, 1);
}
)kernel");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* x = kernel.buffer<int>("x", 4, 0);
    const int values[4] = {-5, 3, 25, 20};
    std::copy(values, values + 4, x);
    unsigned* out = kernel.buffer<unsigned>("out", 4, 0u);
    int limit = 20;
    const auto result = run_one_block(kernel, {&x, &out, &limit}, 4);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(out[0], 20u + 1000u);
    EXPECT_EQ(out[1], 3u + 1000u);
    EXPECT_EQ(out[2], 20u + 2000u);
    EXPECT_EQ(out[3], 20u + 3000u);
}

TEST(EmuPrelude, AHostDeviceHelperCallingMinServesKernelAndReference) {
    test::TempDir dir;
    EngineConfig config = default_engine_config();
    config.cache_dir = dir.path() / "cache";
    Engine engine(config);
    RunRequest request;
    request.kernel_path = dir.write("emu/clamp.cu", test::emu_kernel("minmax_clamp.cu"));
    request.emulate = true;
    request.emulation_timeout_s = 60;
    const RunReport report = engine.run(request);
    ASSERT_TRUE(report.ok()) << report.error << (report.compile.log.empty() ? "" : "\n" + report.compile.log);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.check.reference, "host function kplay_reference (sandboxed)");
}

TEST(EmuPrelude, MathFunctionsCudaAddsAreAccurate) {
    EmuKernel kernel(R"(
__global__ void k(double* out) {
    out[0] = sinpif(1.0f);
    out[1] = cospif(0.5f);
    out[2] = sinpi(-2.5);
    out[3] = erff(erfinvf(0.3f));
    out[4] = erf(erfinv(-0.999999));
    out[5] = erfc(erfcinv(1e-30));
    out[6] = normcdf(normcdfinv(0.025));
    out[7] = erfcx(30.0) * 30.0 * 1.7724538509055160273;
    out[8] = cyl_bessel_i0(1.0);
    out[9] = cyl_bessel_i1f(-2.0f);
    out[10] = rsqrtf(4.0f) + rcbrt(8.0) + rhypot(3.0, 4.0);
    out[11] = norm3df(3.0f, 4.0f, 12.0f) + rnorm4d(2.0, 2.0, 2.0, 2.0);
    out[12] = __saturatef(-0.5f) + __saturatef(0.25f) + __saturatef(3.0f) + __saturatef(NAN);
    out[13] = exp10f(2.0f) + lgammaf(5.0f) + tgamma(5.0) + fdimf(5.0f, 3.0f);
    out[14] = sqrt(16) + pow(2.0f, 3) + abs(-3) + fabsf(-1.5f);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    double* out = kernel.buffer<double>("out", 15, -1.0);
    const auto result = run_one_block(kernel, {&out});
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(out[0], 0.0);
    EXPECT_EQ(out[1], 0.0);
    EXPECT_EQ(out[2], -1.0);
    EXPECT_NEAR(out[3], 0.3, 1e-7);
    EXPECT_NEAR(out[4], -0.999999, 2e-15);
    EXPECT_NEAR(out[5] / 1e-30, 1.0, 1e-12);
    EXPECT_NEAR(out[6], 0.025, 1e-15);
    EXPECT_NEAR(out[7], 1.0 - 1.0 / (2 * 900.0) + 3.0 / (4 * 810000.0), 1e-8);  // erfcx's asymptotic series
    EXPECT_NEAR(out[8], 1.2660658777520082, 1e-14);
    EXPECT_NEAR(out[9], -1.5906368546373291, 1e-6);
    EXPECT_EQ(out[10], 0.5 + 0.5 + 0.2);
    EXPECT_NEAR(out[11], 13.0 + 0.25, 1e-6);
    EXPECT_EQ(out[12], 0.25 + 1.0);
    EXPECT_NEAR(out[13], 100.0 + std::log(24.0) + 24.0 + 2.0, 1e-5);
    EXPECT_EQ(out[14], 4.0 + 8.0 + 3.0 + 1.5);
}

TEST(EmuPrelude, RoundingModesOfArithmeticAndConversionsAreExact) {
    EmuKernel kernel(R"(
__global__ void k(float* f, double* d, long long* i) {
    f[0] = __fadd_rz(1.0f, 1e-8f);
    f[1] = __fadd_ru(1.0f, 1e-8f);
    f[2] = __fsub_rd(1.0f, 1e-8f);
    f[3] = __fmul_ru(1.0f / 3.0f, 3.0f);
    f[4] = __fdiv_rz(1.0f, 3.0f);
    f[5] = __fdiv_ru(1.0f, 3.0f);
    f[6] = __fsqrt_rd(2.0f);
    f[7] = __fsqrt_ru(2.0f);
    f[8] = __fmaf_ru(1.0f + 0x1p-20f, 1.0f + 0x1p-20f, 0.0f);
    f[9] = __int2float_rz(16777217);
    f[10] = __int2float_ru(16777217);
    f[11] = __ull2float_rd(18446744073709551615ull);
    f[12] = __double2float_ru(1.0 + 1e-12);
    f[13] = __frcp_rn(4.0f) + __fmul_rn(2.0f, 3.0f);
    d[0] = __dadd_ru(1.0, 1e-20);
    d[1] = __ddiv_rd(-1.0, 3.0);
    d[2] = __fma_rz(1.0 + 0x1p-30, 1.0 + 0x1p-30, 0.0) - __fma_ru(1.0 + 0x1p-30, 1.0 + 0x1p-30, 0.0);
    d[3] = __ll2double_ru(9007199254740993ll);
    d[4] = dadd(1.0, 1e-20, cudaRoundPosInf);
    i[0] = __float2int_rn(2.5f) * 10 + __float2int_rn(3.5f);
    i[1] = __float2int_rz(-2.7f) * 10 + __float2int_rd(-2.2f);
    i[2] = __float2int_ru(-2.7f);
    i[3] = __float2int_rn(3e9f);
    i[4] = __float2uint_rn(-1.0f);
    i[5] = __float2int_rn(NAN);
    i[6] = __double2ll_rz(-1e30);
    i[7] = __float2ull_ru(0.5f);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    float* f = kernel.buffer<float>("f", 14, 0.0f);
    double* d = kernel.buffer<double>("d", 5, 0.0);
    long long* i = kernel.buffer<long long>("i", 8, 0);
    const auto result = run_one_block(kernel, {&f, &d, &i});
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(f[0], 1.0f);
    EXPECT_EQ(f[1], std::nextafter(1.0f, 2.0f));
    EXPECT_EQ(f[2], std::nextafter(1.0f, 0.0f));
    EXPECT_EQ(f[3], std::nextafter(1.0f, 2.0f));  // (1/3 rounded up) x 3 = 1 + 2^-25
    EXPECT_EQ(f[4], std::nextafter(f[5], 0.0f));
    EXPECT_LT(static_cast<double>(f[4]), 1.0 / 3.0);
    EXPECT_GT(static_cast<double>(f[5]), 1.0 / 3.0);
    EXPECT_EQ(f[6], std::nextafter(f[7], 0.0f));
    EXPECT_EQ(f[8], 1.0f + 0x1p-19f + 0x1p-23f);  // 1 + 2^-19 + 2^-40, up
    EXPECT_EQ(f[9], 16777216.0f);
    EXPECT_EQ(f[10], 16777218.0f);
    EXPECT_EQ(f[11], std::nextafter(18446744073709551616.0f, 0.0f));
    EXPECT_EQ(f[12], std::nextafter(1.0f, 2.0f));
    EXPECT_EQ(f[13], 6.25f);
    EXPECT_EQ(d[0], std::nextafter(1.0, 2.0));
    EXPECT_EQ(d[1], std::nextafter(-1.0 / 3.0, -1.0));
    EXPECT_EQ(d[2], -0x1p-52);  // 1 + 2^-29 + 2^-60 toward zero, and up
    EXPECT_EQ(d[3], 9007199254740994.0);
    EXPECT_EQ(d[4], std::nextafter(1.0, 2.0));
    EXPECT_EQ(i[0], 24);
    EXPECT_EQ(i[1], -23);
    EXPECT_EQ(i[2], -2);
    EXPECT_EQ(i[3], INT_MAX);
    EXPECT_EQ(i[4], 0);
    EXPECT_EQ(i[5], 0);
    EXPECT_EQ(i[6], LLONG_MIN);
    EXPECT_EQ(i[7], 1);
}

TEST(EmuPrelude, BitAndSimdIntrinsics) {
    EmuKernel kernel(R"(
__global__ void k(unsigned* u) {
    u[0] = __brev(0x1u);
    u[1] = __byte_perm(0x33221100u, 0x77665544u, 0x7531u);
    u[2] = __funnelshift_l(0x80000001u, 0x1u, 4);
    u[3] = __funnelshift_rc(0x0u, 0xffu, 40);
    u[4] = __popc(0xf0f0u) * 100 + __clz(0) + __ffs(0x8);
    u[5] = (unsigned)__mul24(-3, 0x1000005) ;
    u[6] = (unsigned)__mulhi(-2, 0x40000000);
    u[7] = (unsigned)(__umul64hi(0xffffffffffffffffull, 3ull));
    u[8] = __sad(-3, 4, 10u);
    u[9] = (unsigned)__dp4a(make_char4(1, -2, 3, -4), make_char4(5, 6, 7, 8), 100);
    u[10] = __vadd2(0xffff0001u, 0x00010001u);
    u[11] = __vaddss2(0x7fff8000u, 0x0001ffffu);
    u[12] = __vcmpgtu4(0x01ff0280u, 0x02fe0280u);
    u[13] = __vabsdiffs2(0x8000fffdu, 0x7fff0003u);
    u[14] = __vavgs2(0xfffd0003u, 0x00000000u);
    u[15] = (unsigned)__viaddmax_s32(0x7fffffff, 1, 5);
    bool won;
    u[16] = (unsigned)__vibmax_s32(-1, -2, &won) + (won ? 1000u : 0u);
    u[17] = __vimax3_u16x2(0x00010005u, 0x00070002u, 0x00030009u);
    u[18] = __vsads4(0x01020304u, 0x04030201u);
    u[19] = __fns(0xf0u, 0, 2) * 100 + __fns(0xf0u, 7, -3);
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    unsigned* u = kernel.buffer<unsigned>("u", 20, 0u);
    const auto result = run_one_block(kernel, {&u});
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(u[0], 0x80000000u);
    EXPECT_EQ(u[1], 0x77553311u);
    EXPECT_EQ(u[2], 0x18u);
    EXPECT_EQ(u[3], 0xffu);  // the shift clamps to 32: the high word
    EXPECT_EQ(u[4], 8u * 100 + 32 + 4);
    EXPECT_EQ(u[5], static_cast<unsigned>(-3 * 5));  // the low 24 bits of 0x1000005 are 5
    EXPECT_EQ(u[6], 0xffffffffu);                     // -2 * 2^30 = -2^31: the high word is -1
    EXPECT_EQ(u[7], 2u);
    EXPECT_EQ(u[8], 17u);
    EXPECT_EQ(u[9], static_cast<unsigned>(100 + 5 - 12 + 21 - 32));
    EXPECT_EQ(u[10], 0x00000002u);
    EXPECT_EQ(u[11], 0x7fff8000u);  // 0x7fff + 1 saturates; -32768 + -1 saturates
    EXPECT_EQ(u[12], 0x00ff0000u);
    EXPECT_EQ(u[13], 0xffff0006u);
    EXPECT_EQ(u[14], 0xfffe0002u);  // -3/2 and 3/2 rounded away from zero
    EXPECT_EQ(u[15], 5u);           // the add wraps to INT_MIN first
    EXPECT_EQ(u[16], static_cast<unsigned>(-1) + 1000u);
    EXPECT_EQ(u[17], 0x00070009u);
    EXPECT_EQ(u[18], 3u + 1 + 1 + 3);
    EXPECT_EQ(u[19], 5u * 100 + 5);
}

}  // namespace
}  // namespace kplay
