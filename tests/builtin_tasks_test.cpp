// The built-in tasks through the generic task path: grayscale (the seed formula, +-1, poisoned, zero and
// unstable outputs) and matmul (sizes, the fp64 reference and its error bound, TF32 rounding, bugs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/default_image.hpp"
#include "base/error.hpp"
#include "base/expression.hpp"
#include "plan/plan.hpp"
#include "kernel_file/builtin_tasks.hpp"
#include "kernel_file/task_sizes.hpp"
#include "reference/builtin_references.hpp"
#include "tasks/task_check.hpp"
#include "tasks/task_inputs.hpp"

using namespace kplay;

namespace {

const TaskSpec& grayscale() { return *find_builtin_task("grayscale"); }
const TaskSpec& matmul() { return *find_builtin_task("matmul"); }

TaskData gray_inputs(int w, int h) {
    const PlanarImage image = make_default_image(w, h);
    return make_task_inputs(grayscale(), {w, h}, 1, &image, "built-in image");
}

TaskData matmul_inputs(const std::string& size, uint64_t seed) {
    return make_task_inputs(matmul(), parse_size_values(matmul(), size), seed, nullptr, "");
}

std::vector<PlanBuffer> plan_buffers(const TaskData& data) {
    std::vector<PlanBuffer> buffers;
    for (const HostBuffer& b : data.buffers) buffers.push_back({b.name, b.type, static_cast<int64_t>(b.count), b.shape, b.is_output()});
    return buffers;
}

// What the two checked launches left: `first` after poison[0], and the task data holding the second.
struct Launches {
    TaskData data;
    std::vector<HostBuffer> first;
};

Launches launched(TaskData data, const std::string& output, std::vector<unsigned char> first, std::vector<unsigned char> second) {
    Launches launches{std::move(data), {}};
    launches.first.resize(launches.data.buffers.size());
    const int index = launches.data.index_of(output);
    launches.first[index] = launches.data.buffers[index];
    launches.first[index].data = std::move(first);
    launches.data.buffers[index].data = std::move(second);
    return launches;
}

struct Checked {
    CheckReport report;
    OutputView view;
};

Checked check(const TaskSpec& task, const Launches& launches, std::optional<double> tolerance = std::nullopt) {
    const ExpectedOutputs expected = builtin_reference(task.reference.builtin, task, launches.data, {});
    const RunCheckInput input{&task, &launches.data, &launches.first, &expected, nullptr, tolerance};
    return {check_run(input), primary_output_view(input)};
}

std::vector<unsigned char> gray_reference(const TaskData& data) {
    const std::vector<uint8_t> gray = grayscale_reference(data.find("in")->data.data(), data.find("out")->count);
    return {gray.begin(), gray.end()};
}

const float* floats(const TaskData& data, const char* name) { return reinterpret_cast<const float*>(data.find(name)->data.data()); }

// Plain fp32 triple loop, the way a correct kernel computes.
std::vector<unsigned char> fp32_product(const TaskData& data, bool tf32 = false, bool transposed_bug = false) {
    const int64_t m = data.values.at("M"), n = data.values.at("N"), k = data.values.at("K");
    const float* a = floats(data, "a");
    const float* b = floats(data, "b");
    auto round_tf32 = [&](float v) {
        if (!tf32) return v;
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        bits = (bits + 0x1000u) & ~0x1FFFu;  // keep 10 mantissa bits, round to nearest
        std::memcpy(&v, &bits, 4);
        return v;
    };
    std::vector<unsigned char> bytes(m * n * 4);
    auto* c = reinterpret_cast<float*>(bytes.data());
    for (int64_t r = 0; r < m; ++r)
        for (int64_t col = 0; col < n; ++col) {
            float sum = 0;
            for (int64_t i = 0; i < k; ++i) {
                const float bv = transposed_bug ? b[(col * k + i) % (k * n)] : b[i * n + col];
                sum += round_tf32(a[r * k + i]) * round_tf32(bv);
            }
            c[r * n + col] = sum;
        }
    return bytes;
}

}  // namespace

TEST(GrayscaleTask, ReferenceUsesTheSeedFormulaInDouble) {
    EXPECT_EQ(seed_gray(255, 255, 255), 254);  // 0.9999 * 255 = 254.97, truncated like the kernel
    EXPECT_EQ(seed_gray(0, 0, 0), 0);
    EXPECT_EQ(seed_gray(100, 150, 200), static_cast<uint8_t>(0.2989 * 100 + 0.5870 * 150 + 0.1140 * 200));
    const std::vector<uint8_t> planes{10, 20, 30, 40, 50, 60};  // 2 pixels: R=10,20 G=30,40 B=50,60
    EXPECT_EQ(grayscale_reference(planes.data(), 2), (std::vector<uint8_t>{seed_gray(10, 30, 50), seed_gray(20, 40, 60)}));
}

TEST(GrayscaleTask, InputsHaveTheTaskValuesAndBuffers) {
    const TaskData data = gray_inputs(37, 23);
    EXPECT_EQ(data.values.at("w"), 37);
    EXPECT_EQ(data.values.at("h"), 23);
    EXPECT_EQ(data.values.at("n"), 37 * 23);
    EXPECT_EQ(data.find("in")->bytes(), 3u * 37 * 23);
    EXPECT_TRUE(data.find("out")->is_output());
    EXPECT_NE(data.find("out")->poison[0], data.find("out")->poison[1]);
    EXPECT_EQ(launch_extent(grayscale(), 2, data.values, plan_buffers(data)), (std::array<int64_t, 3>{37, 23, 1}));
    EXPECT_EQ(launch_extent(grayscale(), 1, data.values, plan_buffers(data)), (std::array<int64_t, 3>{37 * 23, 1, 1}));
    EXPECT_DOUBLE_EQ(evaluate_real_expr(grayscale().cost.bytes, data.values), 4.0 * 37 * 23);
}

TEST(GrayscaleTask, CorrectOutputPasses) {
    const TaskData data = gray_inputs(37, 23);
    const Checked checked = check(grayscale(), launched(data, "out", gray_reference(data), gray_reference(data)));
    EXPECT_TRUE(checked.report.passed) << checked.report.summary;
    EXPECT_EQ(checked.report.metric("max_abs_error"), 0);
    EXPECT_EQ(checked.view.kind, OutputKind::image);
    EXPECT_EQ(checked.view.map.size(), 37u * 23);
    EXPECT_EQ(checked.view.width, 37);
}

TEST(GrayscaleTask, OffByOneIsWithinDefaultToleranceButNotZero) {
    const TaskData data = gray_inputs(37, 23);
    std::vector<unsigned char> off = gray_reference(data);
    for (auto& v : off) v = v < 255 ? v + 1 : v;
    const Launches launches = launched(data, "out", off, off);
    EXPECT_TRUE(check(grayscale(), launches).report.passed);
    const CheckReport strict = check(grayscale(), launches, 0.0).report;
    EXPECT_FALSE(strict.passed);
    EXPECT_GT(strict.metric("over_tolerance"), 0);
}

TEST(GrayscaleTask, PoisonedOutputFailsAsUnwritten) {
    const TaskData data = gray_inputs(37, 23);
    std::vector<unsigned char> first = gray_reference(data), second = first;
    // Pixel 5 was never written: it holds each launch's poison.
    first[5] = static_cast<uint8_t>(data.find("out")->poison[0]);
    second[5] = static_cast<uint8_t>(data.find("out")->poison[1]);
    const Checked checked = check(grayscale(), launched(data, "out", first, second));
    EXPECT_FALSE(checked.report.passed);
    EXPECT_EQ(checked.report.metric("unwritten"), 1);
    EXPECT_NE(checked.report.first_bad.find("x=5, y=0"), std::string::npos) << checked.report.first_bad;
    EXPECT_NE(checked.report.first_bad.find("never written"), std::string::npos) << checked.report.first_bad;
    EXPECT_TRUE(std::isnan(checked.view.map[5]));
}

TEST(GrayscaleTask, AllZeroOutputFails) {
    const TaskData data = gray_inputs(37, 23);
    const std::vector<unsigned char> zeros(37 * 23, 0);
    const CheckReport report = check(grayscale(), launched(data, "out", zeros, zeros)).report;
    EXPECT_FALSE(report.passed);
    EXPECT_GT(report.metric("over_tolerance"), 0.9 * 37 * 23);
}

TEST(GrayscaleTask, OutputsThatDifferBetweenRunsFail) {
    const TaskData data = gray_inputs(37, 23);
    std::vector<unsigned char> first = gray_reference(data);
    first[7] ^= 1;  // within tolerance, but not the same as the second run: a race on bytes
    const CheckReport report = check(grayscale(), launched(data, "out", first, gray_reference(data))).report;
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.metric("nondeterministic"), 1);
}

// The timed launches' outputs (poisoned before each) are held to what the checked launches computed:
// a kernel that skips its work once it has an answer leaves poison there and is named.
TEST(GrayscaleTask, TimedLaunchesThatReplayAnAnswerAreNamed) {
    const TaskData data = gray_inputs(37, 23);
    const Launches launches = launched(data, "out", gray_reference(data), gray_reference(data));
    const ExpectedOutputs expected = builtin_reference(grayscale().reference.builtin, grayscale(), launches.data, {});
    const RunCheckInput input{&grayscale(), &launches.data, &launches.first, &expected, nullptr, std::nullopt};
    CheckReport report = check_run(input);
    ASSERT_TRUE(report.passed) << report.summary;
    std::vector<HostBuffer> timed = launches.first;
    const int out = launches.data.index_of("out");
    EXPECT_TRUE(replayed_outputs(input, report, timed).empty());  // computed again, the same bytes
    std::fill(timed[out].data.begin(), timed[out].data.end(), static_cast<unsigned char>(data.find("out")->poison[1]));
    report.replayed = replayed_outputs(input, report, timed);
    EXPECT_EQ(report.replayed, std::vector<std::string>{"out"});
    conclude_check(report);
    EXPECT_FALSE(report.passed);
    EXPECT_NE(report.summary.find("the timed launches left 'out' wrong"), std::string::npos) << report.summary;
    EXPECT_NE(report.summary.find("keeps an answer across launches"), std::string::npos) << report.summary;
}

TEST(MatmulTask, ParsesSizes) {
    EXPECT_EQ(parse_size_values(matmul(), "512"), (std::vector<int64_t>{512, 512, 512}));
    EXPECT_EQ(parse_size_values(matmul(), "1000x999x1001"), (std::vector<int64_t>{1000, 999, 1001}));
    EXPECT_EQ(parse_size_values(matmul(), "K=16, M=64,N=32"), (std::vector<int64_t>{64, 32, 16}));
    EXPECT_THROW(parse_size_values(matmul(), "12x"), InputError);
    EXPECT_THROW(parse_size_values(matmul(), "64x32"), InputError);
    EXPECT_THROW(parse_size_values(matmul(), "0x4x4"), InputError);
    EXPECT_THROW(parse_size_values(matmul(), "abc"), InputError);
    EXPECT_THROW(matmul_inputs("100000x100000x100000", 1), InputError);  // each matrix would be 40 GB
}

TEST(MatmulTask, InputsAreSeededRandomNormalNeverZeros) {
    const TaskData one = matmul_inputs("33x17x29", 7);
    const TaskData same = matmul_inputs("33x17x29", 7);
    const TaskData other = matmul_inputs("33x17x29", 8);
    EXPECT_EQ(one.find("a")->data, same.find("a")->data);
    EXPECT_NE(one.find("a")->data, other.find("a")->data);
    EXPECT_NE(one.find("a")->data, one.find("b")->data);
    double sum_sq = 0;
    const float* a = floats(one, "a");
    for (int i = 0; i < 33 * 29; ++i) sum_sq += a[i] * a[i];
    EXPECT_NEAR(sum_sq / (33 * 29), 1.0, 0.2);  // unit variance
    EXPECT_EQ(launch_extent(matmul(), 2, one.values, plan_buffers(one)), (std::array<int64_t, 3>{17, 33, 1}));
    EXPECT_DOUBLE_EQ(evaluate_real_expr(matmul().cost.flops, one.values), 2.0 * 33 * 17 * 29);
}

TEST(MatmulTask, ReferenceMatchesATripleLoopInDouble) {
    const TaskData data = matmul_inputs("7x5x3", 3);
    const MatmulReference reference = matmul_reference(floats(data, "a"), floats(data, "b"), 7, 5, 3);
    const float* a = floats(data, "a");
    const float* b = floats(data, "b");
    for (int r = 0; r < 7; ++r)
        for (int c = 0; c < 5; ++c) {
            double want = 0, bound = 0;
            for (int i = 0; i < 3; ++i) {
                want += double(a[r * 3 + i]) * b[i * 5 + c];
                bound += std::fabs(double(a[r * 3 + i]) * b[i * 5 + c]);
            }
            EXPECT_NEAR(reference.c[r * 5 + c], want, 1e-12);
            EXPECT_NEAR(reference.abs_bound[r * 5 + c], bound, 1e-12);
        }
}

TEST(MatmulTask, ReferenceReportsProgressByPanels) {
    const TaskData data = matmul_inputs("64x8x8", 1);
    std::vector<double> seen;
    matmul_reference(floats(data, "a"), floats(data, "b"), 64, 8, 8, [&](double fraction) { seen.push_back(fraction); });
    ASSERT_GE(seen.size(), 2u);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
}

TEST(MatmulTask, CorrectFp32ResultPassesAtIrregularSize) {
    const TaskData data = matmul_inputs("61x47x301", 1);
    const auto c = fp32_product(data);
    const Checked checked = check(matmul(), launched(data, "c", c, c));
    EXPECT_TRUE(checked.report.passed) << checked.report.summary << " " << checked.report.first_bad;
    EXPECT_LT(checked.report.metric("rel_frobenius_error"), 1e-6);
    EXPECT_EQ(checked.view.kind, OutputKind::matrix);
    EXPECT_EQ(checked.view.width, 47);
    EXPECT_EQ(checked.view.height, 61);
    for (float v : checked.view.map) EXPECT_LE(v, 1.0f);  // the map is |C-R| over the allowed error
}

// Float results that differ in their last bits between launches (atomics in another order) are not a
// replay: the timed output is held to the tolerance, not to the bytes.
TEST(MatmulTask, TimedOutputsWithinTheToleranceAreNoReplay) {
    const TaskData data = matmul_inputs("61x47x301", 1);
    const auto c = fp32_product(data);
    const Launches launches = launched(data, "c", c, c);
    const ExpectedOutputs expected = builtin_reference(matmul().reference.builtin, matmul(), launches.data, {});
    const RunCheckInput input{&matmul(), &launches.data, &launches.first, &expected, nullptr, std::nullopt};
    const CheckReport report = check_run(input);
    ASSERT_TRUE(report.passed) << report.summary;
    std::vector<HostBuffer> timed = launches.first;
    const int index = launches.data.index_of("c");
    float* values = reinterpret_cast<float*>(timed[index].data.data());
    for (size_t i = 0; i < timed[index].count; i += 7) values[i] = std::nextafter(values[i], 1e30f);
    EXPECT_TRUE(replayed_outputs(input, report, timed).empty());
    for (size_t i = 0; i < timed[index].count; ++i) values[i] = 0;
    EXPECT_EQ(replayed_outputs(input, report, timed), std::vector<std::string>{"c"});
}

TEST(MatmulTask, Tf32RoundingFailsTheFp32Tolerance) {
    const TaskData data = matmul_inputs("64x64x1024", 1);
    const auto c = fp32_product(data, true);
    const CheckReport report = check(matmul(), launched(data, "c", c, c)).report;
    EXPECT_FALSE(report.passed);
    EXPECT_GT(report.metric("rel_frobenius_error"), 1e-5);
    // 8192 times the tolerance (TF32 rounds at 2^-11, not 2^-24) lets it pass: the cuBLAS TF32 row's rule.
    EXPECT_TRUE(check(matmul(), launched(data, "c", c, c), 2.0 * 8192).report.passed);
}

TEST(MatmulTask, WrongIndexingFails) {
    const TaskData data = matmul_inputs("20x24x16", 1);
    const auto c = fp32_product(data, false, true);
    const Checked checked = check(matmul(), launched(data, "c", c, c));
    EXPECT_FALSE(checked.report.passed);
    EXPECT_NE(checked.report.first_bad.find("c[0]["), std::string::npos) << checked.report.first_bad;
    EXPECT_GT(*std::max_element(checked.view.map.begin(), checked.view.map.end()), 1.0f);
}

TEST(MatmulTask, ZerosAndPoisonFail) {
    const TaskData data = matmul_inputs("16x16x16", 1);
    const std::vector<unsigned char> zeros(16 * 16 * 4, 0);
    EXPECT_FALSE(check(matmul(), launched(data, "c", zeros, zeros)).report.passed);

    // One element never written: NaN poison in both launches.
    auto c = fp32_product(data);
    auto first = c;
    const uint32_t nan_a = data.find("c")->poison[0], nan_b = data.find("c")->poison[1];
    std::memcpy(first.data() + 4 * 17, &nan_a, 4);
    std::memcpy(c.data() + 4 * 17, &nan_b, 4);
    const CheckReport report = check(matmul(), launched(data, "c", first, c)).report;
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.metric("unwritten"), 1);
    EXPECT_EQ(report.metric("nondeterministic"), 0);  // two NaNs are not a race
    EXPECT_NE(report.first_bad.find("c[1][1]"), std::string::npos) << report.first_bad;
}
