// The matmul fp64 reference and check: sizes, tolerance scaling, NaN poison, zeros, TF32 rounding, bugs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/error.hpp"
#include "tasks/matmul_task.hpp"

using namespace kplay;

namespace {
const float* floats(const TaskData& data, const char* name) {
    return reinterpret_cast<const float*>(data.find(name)->data.data());
}

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

CheckReport check_with(TaskData data, std::vector<unsigned char> first, std::vector<unsigned char> second) {
    HostBuffer previous = *data.find("c");
    previous.data = std::move(first);
    data.find("c")->data = std::move(second);
    return MatmulTask().check(data, {previous}, -1, true);
}
}  // namespace

TEST(MatmulTask, ParsesSizes) {
    EXPECT_EQ(parse_matmul_size("512").k, 512);
    const MatmulSize size = parse_matmul_size("1000x999x1001");
    EXPECT_EQ(size.m, 1000);
    EXPECT_EQ(size.n, 999);
    EXPECT_EQ(size.k, 1001);
    EXPECT_EQ(parse_matmul_size("64x32").k, 32);
    EXPECT_THROW(parse_matmul_size("12x"), InputError);
    EXPECT_THROW(parse_matmul_size("0x4x4"), InputError);
    EXPECT_THROW(parse_matmul_size("100000x100000x100000"), InputError);
    EXPECT_THROW(parse_matmul_size("abc"), InputError);
}

TEST(MatmulTask, InputsAreSeededRandomNormalNeverZeros) {
    const TaskData one = MatmulTask().make_inputs({"", "33x17x29", 7});
    const TaskData same = MatmulTask().make_inputs({"", "33x17x29", 7});
    const TaskData other = MatmulTask().make_inputs({"", "33x17x29", 8});
    EXPECT_EQ(one.find("a")->data, same.find("a")->data);
    EXPECT_NE(one.find("a")->data, other.find("a")->data);
    double sum_sq = 0;
    const float* a = floats(one, "a");
    for (int i = 0; i < 33 * 29; ++i) sum_sq += a[i] * a[i];
    EXPECT_NEAR(sum_sq / (33 * 29), 1.0, 0.2);  // unit variance
    EXPECT_EQ(MatmulTask().extent(one, 2), (std::array<int64_t, 3>{17, 33, 1}));
    EXPECT_DOUBLE_EQ(MatmulTask().flops(one), 2.0 * 33 * 17 * 29);
}

TEST(MatmulTask, ReferenceMatchesATripleLoopInDouble) {
    const TaskData data = MatmulTask().make_inputs({"", "7x5x3", 3});
    const MatmulReference reference = matmul_reference(floats(data, "a"), floats(data, "b"), {7, 5, 3});
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

TEST(MatmulTask, CorrectFp32ResultPassesAtIrregularSize) {
    const TaskData data = MatmulTask().make_inputs({"", "61x47x301", 1});
    const auto c = fp32_product(data);
    const CheckReport report = check_with(data, c, c);
    EXPECT_TRUE(report.passed) << report.summary << " " << report.first_bad;
    EXPECT_LT(report.metric("rel_frobenius_error"), 1e-6);
    EXPECT_EQ(report.map_w, 47);
    EXPECT_EQ(report.map_h, 61);
    for (float v : report.map) EXPECT_LE(v, 1.0f);  // the map is |C-R| over the allowed error
}

TEST(MatmulTask, Tf32RoundingFailsTheFp32Tolerance) {
    const TaskData data = MatmulTask().make_inputs({"", "64x64x1024", 1});
    const auto c = fp32_product(data, true);
    const CheckReport report = check_with(data, c, c);
    EXPECT_FALSE(report.passed);
    EXPECT_GT(report.metric("rel_frobenius_error"), 1e-5);
}

TEST(MatmulTask, WrongIndexingFails) {
    const TaskData data = MatmulTask().make_inputs({"", "20x24x16", 1});
    const auto c = fp32_product(data, false, true);
    const CheckReport report = check_with(data, c, c);
    EXPECT_FALSE(report.passed);
    EXPECT_NE(report.first_bad.find("C[0]["), std::string::npos) << report.first_bad;
    EXPECT_GT(*std::max_element(report.map.begin(), report.map.end()), 1.0f);
}

TEST(MatmulTask, ZerosAndPoisonFail) {
    const TaskData data = MatmulTask().make_inputs({"", "16x16x16", 1});
    std::vector<unsigned char> zeros(16 * 16 * 4, 0);
    EXPECT_FALSE(check_with(data, zeros, zeros).passed);

    // One element never written: NaN poison in both launches.
    auto c = fp32_product(data);
    auto first = c;
    const uint32_t nan_a = data.find("c")->poison[0], nan_b = data.find("c")->poison[1];
    std::memcpy(first.data() + 4 * 17, &nan_a, 4);
    std::memcpy(c.data() + 4 * 17, &nan_b, 4);
    const CheckReport report = check_with(data, first, c);
    EXPECT_FALSE(report.passed);
    EXPECT_EQ(report.metric("nan_inf"), 1);
    EXPECT_EQ(report.metric("nondeterministic"), 0);  // two NaNs are not a race
    EXPECT_NE(report.first_bad.find("C[1][1]"), std::string::npos) << report.first_bad;
}
