// The grayscale reference and check: exact formula, tolerance, poisoned, zero and unstable outputs.
#include <gtest/gtest.h>

#include <cmath>

#include "tasks/grayscale_task.hpp"

using namespace kplay;

namespace {
TaskData small_inputs() { return GrayscaleTask().make_inputs({"", "37x23", 1}); }

// Simulates the engine: output after poison A, and the final output after poison B.
struct Outputs {
    HostBuffer first, second;
};
Outputs correct_outputs(const TaskData& data) {
    const HostBuffer& in = *data.find("in");
    const HostBuffer& out = *data.find("out");
    Outputs outputs{out, out};
    outputs.first.data = grayscale_reference(in.data.data(), out.count);
    outputs.second.data = outputs.first.data;
    return outputs;
}
CheckReport run_check(TaskData data, const Outputs& outputs, double tolerance = -1, bool keep_map = false) {
    data.find("out")->data = outputs.second.data;
    return GrayscaleTask().check(data, {outputs.first}, tolerance, keep_map);
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
    const TaskData data = small_inputs();
    EXPECT_EQ(data.values.at("w"), 37);
    EXPECT_EQ(data.values.at("h"), 23);
    EXPECT_EQ(data.values.at("n"), 37 * 23);
    EXPECT_EQ(data.find("in")->bytes(), 3u * 37 * 23);
    EXPECT_TRUE(data.find("out")->is_output);
    EXPECT_NE(data.find("out")->poison[0], data.find("out")->poison[1]);
    EXPECT_EQ(GrayscaleTask().extent(data, 2), (std::array<int64_t, 3>{37, 23, 1}));
    EXPECT_DOUBLE_EQ(GrayscaleTask().bytes_moved(data), 4.0 * 37 * 23);
}

TEST(GrayscaleTask, CorrectOutputPasses) {
    const TaskData data = small_inputs();
    const CheckReport report = run_check(data, correct_outputs(data), -1, true);
    EXPECT_TRUE(report.passed) << report.summary;
    EXPECT_EQ(report.metric("max_abs_diff"), 0);
    EXPECT_EQ(report.map.size(), 37u * 23);
    EXPECT_EQ(report.map_w, 37);
}

TEST(GrayscaleTask, OffByOneIsWithinDefaultToleranceButNotZero) {
    const TaskData data = small_inputs();
    Outputs outputs = correct_outputs(data);
    for (auto& v : outputs.first.data) v = v < 255 ? v + 1 : v;
    outputs.second.data = outputs.first.data;
    EXPECT_TRUE(run_check(data, outputs).passed);
    const CheckReport strict = run_check(data, outputs, 0);
    EXPECT_FALSE(strict.passed);
    EXPECT_GT(strict.metric("over_tolerance"), 0);
}

TEST(GrayscaleTask, PoisonedOutputFailsAsUnwritten) {
    const TaskData data = small_inputs();
    Outputs outputs = correct_outputs(data);
    const auto& out = *data.find("out");
    // Pixel 5 was never written: it holds each launch's poison.
    outputs.first.data[5] = static_cast<uint8_t>(out.poison[0]);
    outputs.second.data[5] = static_cast<uint8_t>(out.poison[1]);
    const CheckReport report = run_check(data, outputs, -1, true);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.metric("unwritten"), 1);
    EXPECT_NE(report.first_bad.find("x=5, y=0"), std::string::npos) << report.first_bad;
    EXPECT_NE(report.first_bad.find("never written"), std::string::npos) << report.first_bad;
    EXPECT_TRUE(std::isnan(report.map[5]));
}

TEST(GrayscaleTask, AllZeroOutputFails) {
    const TaskData data = small_inputs();
    Outputs outputs = correct_outputs(data);
    std::fill(outputs.first.data.begin(), outputs.first.data.end(), 0);
    outputs.second.data = outputs.first.data;
    const CheckReport report = run_check(data, outputs);
    EXPECT_FALSE(report.passed);
    EXPECT_GT(report.metric("over_tolerance"), 0.9 * 37 * 23);
}

TEST(GrayscaleTask, OutputsThatDifferBetweenRunsFail) {
    const TaskData data = small_inputs();
    Outputs outputs = correct_outputs(data);
    outputs.first.data[7] ^= 1;  // within tolerance, but not the same as the second run
    const CheckReport report = run_check(data, outputs);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.metric("nondeterministic"), 1);
}
