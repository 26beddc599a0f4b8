// The built-in tasks through the generic task path: grayscale (the seed formula, +-1, poisoned, zero and
// unstable outputs) and matmul (sizes, the fp64 reference and its error bound, TF32 rounding, bugs); and
// the check of outputs that stay on a device, through OutputsOnDevice, held to the host's.
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
#include "tasks/buffer_check.hpp"
#include "tasks/kept_view.hpp"
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

// What the two checked launches left: `first` after poison[0], `final` after poison[1].
struct Launches {
    TaskData data;
    std::vector<HostBuffer> first, final;
};

Launches launched(TaskData data, const std::string& output, std::vector<unsigned char> first, std::vector<unsigned char> second) {
    Launches launches{std::move(data), {}, {}};
    launches.first.resize(launches.data.buffers.size());
    launches.final.resize(launches.data.buffers.size());
    const int index = launches.data.index_of(output);
    launches.first[index] = launches.data.buffers[index].described();
    launches.first[index].data = std::move(first);
    launches.final[index] = launches.data.buffers[index].described();
    launches.final[index].data = std::move(second);
    return launches;
}

struct Checked {
    CheckReport report;
    OutputView view;
};

Checked check(const TaskSpec& task, const Launches& launches, std::optional<double> tolerance = std::nullopt) {
    const ExpectedOutputs expected = builtin_reference(task.reference.builtin, task, launches.data, {});
    const RunCheckInput input{&task, &launches.data, &launches.first, &launches.final, &expected, nullptr, tolerance};
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
    const RunCheckInput input{&grayscale(), &launches.data, &launches.first, &launches.final, &expected, nullptr, std::nullopt};
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
    const RunCheckInput input{&matmul(), &launches.data, &launches.first, &launches.final, &expected, nullptr, std::nullopt};
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

namespace {

// Outputs "kept on a device" that is the host memory of `launches`: the check and the views go through
// OutputsOnDevice as a GPU's do, and what crosses back to the host is counted.
class OutputsAside final : public OutputsOnDevice {
public:
    explicit OutputsAside(const Launches& launches) : launches_(launches) {}
    ElementTally tally(size_t index, const BufferCheckInput& input) override { return tally_elements(with_bytes(index, input)); }
    ElementTally timed_tally(size_t index, const BufferCheckInput& input) override {
        BufferCheckInput with_timed = with_bytes(index, input);
        with_timed.first = &timed.at(index);
        return tally_elements(with_timed);
    }
    OutputView view(size_t index, const BufferCheckInput& input, OutputKind kind, int view_side) override {
        sides.push_back(view_side);
        return make_output_view(with_bytes(index, input), kind, view_side);
    }
    std::vector<unsigned char> first_launch(size_t index) override {
        ++reads;
        return launches_.first.at(index).data;
    }
    std::vector<unsigned char> final_launch(size_t index) override {
        ++reads;
        return launches_.final.at(index).data;
    }
    int reads = 0;                  // outputs read back
    std::vector<int> sides;         // each view's view_side
    std::vector<HostBuffer> timed;  // "on the device": the last timed launch's outputs, with their bytes

private:
    BufferCheckInput with_bytes(size_t index, BufferCheckInput input) const {
        EXPECT_TRUE(input.bytes_on_device) << "the check hands the device no bytes";
        input.first = &launches_.first.at(index);
        input.final = &launches_.final.at(index);
        input.bytes_on_device = false;
        return input;
    }
    const Launches& launches_;
};

// The launches as a device that keeps its outputs reports them: described, without bytes.
std::vector<HostBuffer> without_bytes(const std::vector<HostBuffer>& buffers) {
    std::vector<HostBuffer> described;
    for (const HostBuffer& buffer : buffers) described.push_back(buffer.described());
    return described;
}

struct OnDevice {
    const Launches& launches;
    std::shared_ptr<OutputsAside> outputs = std::make_shared<OutputsAside>(launches);
    std::vector<HostBuffer> first = without_bytes(launches.first), final = without_bytes(launches.final);
    RunCheckInput input(const TaskSpec& task, const ExpectedOutputs& expected) const {
        return {&task, &launches.data, &first, &final, &expected, nullptr, std::nullopt, outputs};
    }
};

// The grayscale seed's launches at 37x23, both right, checked "on the device" and on the host.
struct PassingGray {
    TaskData data = gray_inputs(37, 23);
    Launches launches = launched(data, "out", gray_reference(data), gray_reference(data));
    ExpectedOutputs expected = builtin_reference(grayscale().reference.builtin, grayscale(), launches.data, {});
    OnDevice device{launches};
    RunCheckInput on_device = device.input(grayscale(), expected);
    RunCheckInput on_host{&grayscale(), &launches.data, &launches.first, &launches.final, &expected, nullptr, std::nullopt};
};

}  // namespace

// A passing check and a downsampled view on the device read no output back, and say what the host's say.
TEST(OutputsOnDevice, APassingCheckAndItsViewReadNothingBack) {
    const PassingGray gray;
    const auto& [data, launches, expected, device, on_device, on_host] = gray;
    const CheckReport report = check_run(on_device);
    EXPECT_TRUE(report.passed) << report.summary;
    EXPECT_EQ(report.summary, check_run(on_host).summary);
    const OutputView view = primary_output_view(on_device, 16);
    EXPECT_EQ(view.step, 3);
    EXPECT_EQ(view.output, primary_output_view(on_host, 16).output);
    EXPECT_EQ(device.outputs->reads, 0) << "a pass and a downsampled view cross as a tally and a view";
}

// A failure names its first bad element from the bytes read back for it: the same words as the host's.
TEST(OutputsOnDevice, AFailureIsNamedFromBothLaunchesReadBack) {
    const TaskData data = gray_inputs(37, 23);
    std::vector<unsigned char> wrong = gray_reference(data);
    wrong.back() ^= 0x40;  // one bad element, the last
    const Launches launches = launched(data, "out", wrong, wrong);
    const ExpectedOutputs expected = builtin_reference(grayscale().reference.builtin, grayscale(), launches.data, {});
    const OnDevice device{launches};
    const CheckReport report = check_run(device.input(grayscale(), expected));
    const RunCheckInput on_host{&grayscale(), &launches.data, &launches.first, &launches.final, &expected, nullptr, std::nullopt};
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.summary, check_run(on_host).summary);
    EXPECT_NE(report.first_bad.find("x=36, y=22"), std::string::npos) << report.first_bad;
    EXPECT_EQ(device.outputs->reads, 2) << "the first and the second launch's bytes";
}

// A downsampled view's full resolution is made on the device when asked, from its kept copies.
TEST(OutputsOnDevice, TheKeptFullViewIsMadeWhereTheOutputLies) {
    const TaskData data = gray_inputs(37, 23);
    const Launches launches = launched(data, "out", gray_reference(data), gray_reference(data));
    auto expected = std::make_shared<const ExpectedOutputs>(builtin_reference(grayscale().reference.builtin, grayscale(), launches.data, {}));
    const OnDevice device{launches};
    KeptView kept;
    const std::string key = kept.next_key();
    keep_primary_output(device.input(grayscale(), *expected), expected, kept);
    EXPECT_TRUE(device.outputs->sides.empty()) << "nothing made before it is asked for";
    const OutputView full = kept.full_view(key);
    EXPECT_EQ(device.outputs->sides, std::vector<int>{0}) << "at full resolution, on the device";
    EXPECT_EQ(full.step, 1);
    EXPECT_EQ(full.output, launches.final[static_cast<size_t>(launches.data.index_of("out"))].data);
}

// The replay check on the device: a timed output that differs from the checked one is tallied where it
// lies, with the same verdict as the host's, and nothing is read back.
TEST(OutputsOnDevice, AReplayIsFoundWhereTheOutputLies) {
    const PassingGray gray;
    const auto& [data, launches, expected, device, on_device, on_host] = gray;
    const CheckReport report = check_run(on_device);
    ASSERT_TRUE(report.passed) << report.summary;
    const auto out = static_cast<size_t>(launches.data.index_of("out"));
    device.outputs->timed = launches.first;
    std::vector<unsigned char>& timed = device.outputs->timed[out].data;
    EXPECT_TRUE(replayed_outputs(on_device, report, without_bytes(device.outputs->timed)).empty()) << "the same answer again";
    timed[5] ^= 1;  // within the tolerance, but bytes that vary between launches: as racy as on the host
    EXPECT_EQ(replayed_outputs(on_device, report, without_bytes(device.outputs->timed)), replayed_outputs(on_host, report, device.outputs->timed));
    std::fill(timed.begin(), timed.end(), static_cast<unsigned char>(data.find("out")->poison[1]));  // left unwritten
    EXPECT_EQ(replayed_outputs(on_device, report, without_bytes(device.outputs->timed)), std::vector<std::string>{"out"});
    EXPECT_EQ(replayed_outputs(on_host, report, device.outputs->timed), std::vector<std::string>{"out"});
    EXPECT_EQ(device.outputs->reads, 0) << "judged where the output lies";
    std::vector<HostBuffer> same(launches.first.size());  // count 0: the timed launches left the checked bytes
    EXPECT_TRUE(replayed_outputs(on_device, report, same).empty());
}

// The second seed compares two runs' outputs by their fingerprints: equal ones where the reference
// changed are named, whatever the bytes the host holds (none).
TEST(OutputsOnDevice, OutputsThatDidNotChangeAreFoundByFingerprint) {
    const TaskData first = gray_inputs(37, 23);
    ExpectedOutputs first_expected = builtin_reference(grayscale().reference.builtin, grayscale(), first, {});
    ExpectedOutputs second_expected = first_expected;
    const int out = first.index_of("out");
    second_expected.outputs[static_cast<size_t>(out)][0] ^= 1;  // the reference changed
    std::vector<uint64_t> first_prints(first.buffers.size(), 0), second_prints(first.buffers.size(), 0);
    first_prints[static_cast<size_t>(out)] = second_prints[static_cast<size_t>(out)] = 0x1234;
    EXPECT_EQ(outputs_that_did_not_change(grayscale(), first_prints, second_prints, first_expected, second_expected),
              std::vector<std::string>{"out"});
    second_prints[static_cast<size_t>(out)] = 0x1235;
    EXPECT_TRUE(outputs_that_did_not_change(grayscale(), first_prints, second_prints, first_expected, second_expected).empty());
    EXPECT_TRUE(outputs_that_did_not_change(grayscale(), first_prints, first_prints, first_expected, first_expected).empty())
        << "the reference did not change either";
}
