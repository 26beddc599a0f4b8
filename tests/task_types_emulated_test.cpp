// Declared tasks beyond f32 on the emulated device: bf16, fp8, i8 and i64 buffers (README's bf16 GEMV and
// fp8 dequantisation), a task of three launches whose reference sees every buffer and size, an input
// declared zeros=ok, test sizes of the emulated device's own (test-cpu=), a headline that names the size
// that failed, and the emulated device's time budget.
#include <gtest/gtest.h>

#include "device/emulated_device.hpp"
#include "run/engine.hpp"
#include "tasks/task_check.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

class TaskTypes : public ::testing::Test {
protected:
    RunReport run(const std::string& name, const std::string& source, double timeout_s = 30) {
        RunRequest request;
        request.kernel_path = dir_.write(name, source);
        request.emulate = true;
        request.emulation_timeout_s = timeout_s;
        request.reference_timeout_s = 30;
        return engine_.run(request);
    }
    static std::string example(const std::string& name) {
        std::string source = test::readme_example(name);
        EXPECT_FALSE(source.empty()) << "README has no example " << name;
        return source;
    }
    static std::string replaced(std::string source, const std::string& from, const std::string& to) {
        const size_t at = source.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) source.replace(at, from.size(), to);
        return source;
    }
    test::TempDir dir_;
    Engine engine_{[this] {
        EngineConfig config = default_engine_config();
        config.cache_dir = dir_.path() / "cache";
        return config;
    }()};
};

void expect_every_size_passes(const RunReport& report) {
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

TEST_F(TaskTypes, ABf16GemvPassesWithBf16sDefaultToleranceAtTheEmulatedDevicesTestSizes) {
    const RunReport report = run("gemv_bf16.cu", example("gemv_bf16.cu"));
    expect_every_size_passes(report);
    EXPECT_EQ(report.sizes, "512x1024");
    ASSERT_EQ(report.check.buffers.size(), 1u);
    EXPECT_EQ(report.check.buffers[0].rule, "|got - ref| <= 0.01 + 0.01 |ref|");
    // test-cpu= replaces test= on the emulated device: 33x77 is checked, 4096x4096 is not.
    ASSERT_EQ(report.check.sizes.size(), 4u);
    EXPECT_EQ(report.check.sizes[2].sizes, "33x77");

    // A GEMV that skips the last column is caught where a column is worth more than the tolerance.
    const RunReport wrong = run("gemv_bf16.cu", replaced(example("gemv_bf16.cu"), "for (int c = 0; c < C; ++c) sum +=", "for (int c = 0; c < C - 1; ++c) sum +="));
    ASSERT_TRUE(wrong.ok()) << wrong.error;
    EXPECT_FALSE(wrong.check.passed);
    EXPECT_NE(wrong.check.summary.find("'y'"), std::string::npos) << wrong.check.summary;
}

TEST_F(TaskTypes, AnFp8DequantisationIsExactAndAWrongGroupSizeFails) {
    const RunReport report = run("dequant_fp8.cu", example("dequant_fp8.cu"));
    expect_every_size_passes(report);
    EXPECT_EQ(report.check.buffers[0].max_abs_error, 0);
    // Groups of 256 read only the first half of the scales (a smaller group would read past the end of
    // 'scale', a fault rather than a wrong value), so every element past the first group is mis-scaled.
    const RunReport wrong = run("dequant_fp8.cu", replaced(example("dequant_fp8.cu"), "scale[i / 128]);\n}", "scale[i / 256]);\n}"));
    ASSERT_TRUE(wrong.ok()) << wrong.error;
    EXPECT_FALSE(wrong.check.passed) << wrong.check.summary;
}

// i8 in, i64 out beyond 2^53, where a double cannot tell neighbours apart: exact compares the bits.
const std::string kWiden = R"(// kplay-sizes: n default=4096 test=1,1000
// kplay-buffer: a i8[n] in init=randint(-128,127)
// kplay-buffer: b i64[n] out
__global__ void widen(const signed char* a, long long* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = (long long)a[i] * 1099511627776LL * 64 + 3 * i + 1;
}
#ifdef KPLAY_REFERENCE
#include <cstdint>
void kplay_reference(const int8_t* a, int64_t* b, int n) {
    for (int i = 0; i < n; ++i) b[i] = (int64_t)a[i] * 1099511627776LL * 64 + 3 * i + 1;
}
#endif
)";

TEST_F(TaskTypes, I8AndI64BuffersAreCheckedBitForBit) {
    const RunReport report = run("widen.cu", kWiden);
    expect_every_size_passes(report);
    EXPECT_EQ(report.check.buffers[0].rule, "exact");
    const RunReport off_by_one = run("widen.cu", replaced(kWiden, "3 * i + 1;\n}\n#ifdef", "3 * i + (i == 7 ? 2 : 1);\n}\n#ifdef"));
    ASSERT_TRUE(off_by_one.ok()) << off_by_one.error;
    EXPECT_FALSE(off_by_one.check.passed);
    EXPECT_NE(off_by_one.check.buffers[0].first_bad.text.find("b[7]"), std::string::npos) << off_by_one.check.buffers[0].first_bad.text;
}

TEST_F(TaskTypes, AThreeKernelLayernormsReferenceChecksAllThreeOutputs) {
    const RunReport report = run("layernorm.cu", example("layernorm_three_kernels.cu"));
    expect_every_size_passes(report);
    ASSERT_EQ(report.following.size(), 2u);
    ASSERT_EQ(report.check.buffers.size(), 3u);
    for (const BufferCheck& buffer : report.check.buffers) EXPECT_TRUE(buffer.passed) << buffer.buffer << ": " << buffer.summary;

    // Only the second kernel is wrong (the variance over C+1): rstd fails (and out, made from it), mean passes.
    const RunReport wrong = run("layernorm.cu", replaced(example("layernorm_three_kernels.cu"), "sqrtf(sum / C + 1e-5f)", "sqrtf(sum / (C + 1) + 1e-5f)"));
    ASSERT_TRUE(wrong.ok()) << wrong.error;
    EXPECT_FALSE(wrong.check.passed);
    ASSERT_EQ(wrong.check.buffers.size(), 3u);
    for (const BufferCheck& buffer : wrong.check.buffers) EXPECT_EQ(buffer.passed, buffer.buffer == "mean") << buffer.buffer << ": " << buffer.summary;

    // A reference that takes the first kernel's parameters is told the convention.
    const RunReport first_only = run("layernorm.cu", replaced(example("layernorm_three_kernels.cu"),
                                                              "void kplay_reference(const float* inp, const float* weight, const float* bias, float* out, float* mean,\n                     float* rstd, int N, int C) {",
                                                              "void kplay_reference(float* mean, const float* inp, int N, int C) { float* out = 0; float* rstd = 0; const float* weight = 0; const float* bias = 0;"));
    EXPECT_EQ(first_only.stage, Stage::reference);
    EXPECT_NE(first_only.error.find("takes 4 parameters, but a task of 3 launches gives its reference every buffer and size it declares, in "
                                    "order: (inp, weight, bias, out, mean, rstd, N, C)"),
              std::string::npos)
        << first_only.error;
}

TEST_F(TaskTypes, AnInputDeclaredZerosOkMayBeAllZerosAndOtherwiseIsAnInputErrorNamingTheSize) {
    expect_every_size_passes(run("cross_entropy.cu", example("cross_entropy.cu")));
    const RunReport refused = run("cross_entropy.cu", replaced(example("cross_entropy.cu"), " zeros=ok", ""));
    EXPECT_FALSE(refused.ok());
    EXPECT_EQ(refused.stage, Stage::inputs);
    EXPECT_NE(refused.error.find("at size 1x1: input 'targets' would be all zeros (init=randint(0,V-1)) at N=1, V=1"), std::string::npos)
        << refused.error;
    EXPECT_NE(refused.error.find("zeros=ok"), std::string::npos) << refused.error;
}

// A sum that drops the tail past the last whole 2048 elements: right at multiples of 2048, wrong elsewhere.
const std::string kTailDroppingSum = R"(// kplay-sizes: n default=8192 test=1000,2048
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: total f32[1] out init=zero check=rel:1e-5,abs:1e-5
// kplay: block=256 grid=cdiv(n,2048)
__global__ void tail_sum(const float* x, float* total, int n) {
    float sum = 0.0f;
    for (int i = blockIdx.x * 2048 + threadIdx.x; i < (blockIdx.x + 1) * 2048 && i < (n / 2048) * 2048; i += 256) sum += x[i];
    atomicAdd(total, sum);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* total, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i];
    *total = (float)sum;
}
#endif
)";

TEST_F(TaskTypes, TheHeadlineNamesTheTestSizeThatFailedAndWhatFailedThere) {
    const RunReport report = run("tail_sum.cu", kTailDroppingSum);
    ASSERT_TRUE(report.ok()) << report.error;
    ASSERT_FALSE(report.check.buffers.empty());
    EXPECT_TRUE(report.check.buffers[0].passed);  // the run's own size, 8192, is a multiple of 2048
    EXPECT_FALSE(report.check.passed);
    EXPECT_EQ(report.check.summary.rfind("FAIL at size 1000: ", 0), 0u) << report.check.summary;
    EXPECT_NE(report.check.summary.find("total = 0, expected"), std::string::npos) << report.check.summary;
    EXPECT_EQ(report.check.summary.find("FAIL: "), std::string::npos) << report.check.summary;
}

TEST_F(TaskTypes, ASizeTheEmulatedDeviceStopsIsNamedAndTheOtherSizesAreStillChecked) {
    const std::string spinning = replaced(test::vector_add_task("default=4096 test=1,1000,1025"), "if (i < n) c[i] = a[i] + b[i];",
                                          "volatile int spin = 1;\n    while (n == 1000 && spin) {}\n    if (i < n) c[i] = a[i] + b[i];");
    const RunReport report = run("spin.cu", spinning, 1);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_FALSE(report.check.passed);
    EXPECT_EQ(report.check.summary.rfind("FAIL at size 1000: Kernel did not finish within 1 s on the emulated device and was stopped", 0), 0u)
        << report.check.summary;
    ASSERT_EQ(report.check.sizes.size(), 4u);
    EXPECT_TRUE(report.check.sizes[0].passed);
    EXPECT_FALSE(report.check.sizes[1].passed);
    EXPECT_TRUE(report.check.sizes[2].passed) << report.check.sizes[2].summary;
}

TEST(CheckHeadline, AnOutputThatIgnoredTheSecondSeedIsNamedWithItsSize) {
    CheckReport check;
    BufferCheck passing;
    passing.buffer = "y";
    passing.passed = true;
    passing.summary = "PASS: all 8 elements of 'y' match exactly";
    check.buffers = {passing};
    check.input_independent = {"y"};
    check.input_independent_at = "1000";
    conclude_check(check);
    EXPECT_FALSE(check.passed);
    EXPECT_EQ(check.summary, "FAIL at size 1000: 'y' did not change when the inputs did (seeds 1 and 2): the kernel does not compute it from them");
    // A size that failed outright leads instead, with its seed.
    SizeCheck failed;
    failed.sizes = "1000 (seed 2)";
    failed.seed = 2;
    failed.summary = "FAIL: y = 0, expected 1";
    check.sizes = {failed};
    conclude_check(check);
    EXPECT_EQ(check.summary, "FAIL at size 1000 (seed 2): y = 0, expected 1");
}

TEST(EmulatedTimeBudget, GrowsWithTheThreadsPastAMillion) {
    LaunchConfig small, large;
    small.grid.x = 4;
    small.block.x = 256;
    large.grid.x = 4096;
    large.block.x = 1024;
    EXPECT_EQ(emulated_time_budget(10, small), 10);
    EXPECT_EQ(emulated_time_budget(10, large), 40);  // 4 Mi threads: four budgets
    EXPECT_EQ(emulated_time_budget(2, large), 8);
}

}  // namespace
}  // namespace kplay
