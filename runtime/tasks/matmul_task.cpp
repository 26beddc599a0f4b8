// Matmul inputs (seeded normal random), the OpenBLAS fp64 reference and the error metrics.
//
// Tolerance: fp32 rounding error of a K-term dot product grows like u*sqrt(K) times the sum of |a||b|
// for any reasonable summation order, so each element gets tol * u * sqrt(K) * (|A||B|)_ij. With the
// default tol = 2 an ordinary fp32 kernel passes with a wide margin at every K, while a wrong index, a
// missed tile, a race or TF32 rounding (u = 2^-11) fails.
#include "tasks/matmul_task.hpp"

#include <cblas.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "base/error.hpp"
#include "tasks/reference_cache.hpp"

namespace kplay {

namespace {

constexpr uint32_t kNanA = 0x7FC00000u, kNanB = 0xFFC0DEADu;  // two quiet NaNs
constexpr double kUnitRoundoff = 1.0 / (1 << 24);
constexpr int kMaxMapSide = 1024;
constexpr int64_t kMaxMatmulElements = 1ll << 28;  // per matrix: 1 GiB of fp32

ReferenceCache<MatmulReference>& reference_cache() {
    static ReferenceCache<MatmulReference> cache;
    return cache;
}

std::vector<unsigned char> random_normal_matrix(size_t count, uint64_t seed) {
    std::vector<unsigned char> bytes(count * sizeof(float));
    std::mt19937_64 engine(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    auto* values = reinterpret_cast<float*>(bytes.data());
    for (size_t i = 0; i < count; ++i) values[i] = normal(engine);
    return bytes;
}

}  // namespace

MatmulSize parse_matmul_size(const std::string& text) {
    long long a = 0, b = 0, c = 0;
    char x1 = 0, x2 = 0, extra = 0;
    MatmulSize size;
    const int fields = std::sscanf(text.c_str(), "%lld%c%lld%c%lld%c", &a, &x1, &b, &x2, &c, &extra);
    if (fields == 1) size = {a, a, a};
    else if (fields == 3 && (x1 == 'x' || x1 == 'X')) size = {a, b, b};
    else if (fields == 5 && (x1 == 'x' || x1 == 'X') && (x2 == 'x' || x2 == 'X')) size = {a, b, c};
    else throw InputError("Matrix size must look like 1024, 512x256 or 1000x999x1001 (MxNxK), not '" + text + "'.");
    if (size.m <= 0 || size.n <= 0 || size.k <= 0)
        throw InputError("Matrix sizes must be positive, got " + text + ".");
    if (size.m * size.k > kMaxMatmulElements || size.k * size.n > kMaxMatmulElements ||
        size.m * size.n > kMaxMatmulElements)
        throw InputError("Matrix size " + text + " is too large: each matrix may hold at most 2^28 elements.");
    return size;
}

MatmulReference matmul_reference(const float* a, const float* b, const MatmulSize& size) {
    const size_t m = size.m, n = size.n, k = size.k;
    std::vector<double> a64(a, a + m * k), b64(b, b + k * n);
    MatmulReference reference;
    reference.c.assign(m * n, 0.0);
    reference.abs_bound.assign(m * n, 0.0);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                1.0, a64.data(), static_cast<int>(k), b64.data(), static_cast<int>(n), 0.0, reference.c.data(),
                static_cast<int>(n));
    for (auto& v : a64) v = std::fabs(v);
    for (auto& v : b64) v = std::fabs(v);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                1.0, a64.data(), static_cast<int>(k), b64.data(), static_cast<int>(n), 0.0,
                reference.abs_bound.data(), static_cast<int>(n));
    return reference;
}

std::vector<std::string> MatmulTask::canonical_args(size_t param_count) const {
    if (param_count == 6) return {"a", "b", "c", "M", "N", "K"};
    return {};
}

std::vector<std::string> MatmulTask::default_block(int launch_dims) const {
    if (launch_dims == 1) return {"256"};
    return {"16", "16"};
}

TaskData MatmulTask::make_inputs(const InputRequest& request) const {
    const MatmulSize size = request.size.empty() ? MatmulSize{} : parse_matmul_size(request.size);
    TaskData data;
    data.task = name();
    data.values = {{"M", size.m}, {"N", size.n}, {"K", size.k}};
    data.identity = "matmul:" + std::to_string(size.m) + "x" + std::to_string(size.n) + "x" + std::to_string(size.k) +
                    ":seed" + std::to_string(request.seed);
    data.description = "random normal A " + std::to_string(size.m) + "x" + std::to_string(size.k) + ", B " +
                       std::to_string(size.k) + "x" + std::to_string(size.n) + " (seed " + std::to_string(request.seed) + ")";
    const size_t a_count = size.m * size.k, b_count = size.k * size.n, c_count = size.m * size.n;
    // Distinct streams per matrix so A and B are never the same numbers.
    data.buffers.push_back({"a", ElementType::f32, a_count, false, random_normal_matrix(a_count, request.seed * 2 + 1), {0, 0}});
    data.buffers.push_back({"b", ElementType::f32, b_count, false, random_normal_matrix(b_count, request.seed * 2 + 2), {0, 0}});
    data.buffers.push_back({"c", ElementType::f32, c_count, true, {}, {kNanA, kNanB}});
    return data;
}

std::array<int64_t, 3> MatmulTask::extent(const TaskData& data, int launch_dims) const {
    if (launch_dims == 1) return {data.values.at("M") * data.values.at("N"), 1, 1};
    return {data.values.at("N"), data.values.at("M"), 1};  // x runs along columns, y along rows
}

double MatmulTask::bytes_moved(const TaskData& data) const {
    const double m = data.values.at("M"), n = data.values.at("N"), k = data.values.at("K");
    return 4.0 * (m * k + k * n + m * n);
}

double MatmulTask::flops(const TaskData& data) const {
    return 2.0 * data.values.at("M") * data.values.at("N") * static_cast<double>(data.values.at("K"));
}

CheckReport MatmulTask::check(const TaskData& data, const std::vector<HostBuffer>& previous_outputs, double tolerance,
                              bool keep_map) const {
    CheckReport report;
    report.tolerance = tolerance < 0 ? 2 : tolerance;
    const MatmulSize size{data.values.at("M"), data.values.at("N"), data.values.at("K")};
    const auto* a = reinterpret_cast<const float*>(data.find("a")->data.data());
    const auto* b = reinterpret_cast<const float*>(data.find("b")->data.data());
    const auto* c = reinterpret_cast<const float*>(data.find("c")->data.data());
    const float* previous =
        previous_outputs.empty() ? nullptr : reinterpret_cast<const float*>(previous_outputs.front().data.data());
    auto lookup = reference_cache().get(data.identity, [&] { return matmul_reference(a, b, size); });
    report.reference_ms = lookup.compute_ms;
    report.reference_cached = lookup.cached;
    const MatmulReference& reference = *lookup.reference;

    const double scale = report.tolerance * kUnitRoundoff * std::sqrt(static_cast<double>(size.k));
    const size_t count = static_cast<size_t>(size.m * size.n);
    double max_abs = 0, max_rel = 0, diff_sq = 0, ref_sq = 0;
    int64_t over = 0, nonfinite = 0, unstable = 0, first = -1;
    for (size_t i = 0; i < count; ++i) {
        const double got = c[i], want = reference.c[i];
        ref_sq += want * want;
        if (previous && std::memcmp(&previous[i], &c[i], sizeof(float)) != 0 && !(std::isnan(previous[i]) && std::isnan(c[i])))
            ++unstable;
        if (!std::isfinite(got)) {
            ++nonfinite;
            ++over;
            if (first < 0) first = static_cast<int64_t>(i);
            continue;
        }
        const double diff = std::fabs(got - want);
        diff_sq += diff * diff;
        max_abs = std::max(max_abs, diff);
        if (std::fabs(want) > 1e-3 * reference.abs_bound[i]) max_rel = std::max(max_rel, diff / std::fabs(want));
        if (diff > scale * reference.abs_bound[i] + 1e-30) {
            ++over;
            if (first < 0) first = static_cast<int64_t>(i);
        }
    }
    const double rel_frobenius = ref_sq > 0 ? std::sqrt(diff_sq / ref_sq) : std::sqrt(diff_sq);
    report.metrics = {{"max_abs_error", max_abs},
                      {"max_rel_error", max_rel},
                      {"rel_frobenius_error", nonfinite ? NAN : rel_frobenius},
                      {"over_tolerance", static_cast<double>(over)},
                      {"nan_inf", static_cast<double>(nonfinite)},
                      {"nondeterministic", static_cast<double>(unstable)},
                      {"elements", static_cast<double>(count)}};
    if (first >= 0) {
        const int64_t row = first / size.n, col = first % size.n;
        char text[200];
        std::snprintf(text, sizeof text, "C[%lld][%lld] = %.6g, expected %.6g (allowed error %.3g)",
                      static_cast<long long>(row), static_cast<long long>(col), static_cast<double>(c[first]),
                      reference.c[first], scale * reference.abs_bound[first]);
        report.first_bad = text;
    }
    report.passed = over == 0 && unstable == 0;
    char line[300];
    if (report.passed)
        std::snprintf(line, sizeof line, "PASS: %zu elements, max abs error %.3g, rel Frobenius %.3g", count, max_abs,
                      rel_frobenius);
    else
        std::snprintf(line, sizeof line, "FAIL: %lld of %zu elements over tolerance (%lld NaN/Inf, %lld differ between runs)",
                      static_cast<long long>(over), count, static_cast<long long>(nonfinite), static_cast<long long>(unstable));
    report.summary = line;

    if (keep_map) {
        // The map holds |C-R| over the element's allowed error (<= 1 passes), max-pooled to at most
        // kMaxMapSide per side so tile-edge stripes survive the downsampling. Normalising makes a
        // passing kernel look quiet and puts failures on one scale whatever the sizes.
        const int64_t step_x = (size.n + kMaxMapSide - 1) / kMaxMapSide, step_y = (size.m + kMaxMapSide - 1) / kMaxMapSide;
        report.map_w = static_cast<int>((size.n + step_x - 1) / step_x);
        report.map_h = static_cast<int>((size.m + step_y - 1) / step_y);
        report.map.assign(static_cast<size_t>(report.map_w) * report.map_h, 0.0f);
        for (int64_t r = 0; r < size.m; ++r)
            for (int64_t col = 0; col < size.n; ++col) {
                const size_t i = static_cast<size_t>(r * size.n + col);
                const double allowed = scale * reference.abs_bound[i] + 1e-30;
                const float error = std::isfinite(c[i]) ? static_cast<float>(std::fabs(c[i] - reference.c[i]) / allowed)
                                                        : std::numeric_limits<float>::quiet_NaN();
                float& cell = report.map[static_cast<size_t>((r / step_y) * report.map_w + col / step_x)];
                if (std::isnan(error) || std::isnan(cell)) cell = std::numeric_limits<float>::quiet_NaN();
                else cell = std::max(cell, error);
            }
    }
    return report;
}

}  // namespace kplay
