// The seed grayscale formula and the OpenBLAS fp64 GEMM, as expected outputs.
//
// Matmul tolerance: fp32 rounding error of a K-term dot product grows like u*sqrt(K) times the sum of
// |a||b| for any reasonable summation order, so each element gets tol * u * sqrt(K) * (|A||B|)ij. With
// the default tol = 2 an ordinary fp32 kernel passes with a wide margin at every K, while a wrong
// index, a missed tile, a race or TF32 rounding (u = 2^-11) fails.
#include "reference/builtin_references.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/error.hpp"

namespace kplay {

namespace {

constexpr double kUnitRoundoff = 1.0 / (1 << 24);

const HostBuffer& buffer(const TaskData& data, const char* name) {
    const HostBuffer* found = data.find(name);
    if (!found) throw InputError(std::string("Internal: the built-in task has no buffer '") + name + "'.");
    return *found;
}

ExpectedOutputs grayscale_outputs(const TaskData& data) {
    const HostBuffer& in = buffer(data, "in");
    const HostBuffer& out = buffer(data, "out");
    ExpectedOutputs expected;
    expected.outputs.resize(data.buffers.size());
    expected.bounds.resize(data.buffers.size());
    const std::vector<uint8_t> gray = grayscale_reference(in.data.data(), out.count);
    expected.outputs[static_cast<size_t>(data.index_of("out"))].assign(gray.begin(), gray.end());
    return expected;
}

ExpectedOutputs matmul_outputs(const TaskData& data, const ReferenceProgress& progress) {
    const int64_t m = data.values.at("M"), n = data.values.at("N"), k = data.values.at("K");
    const MatmulReference reference = matmul_reference(reinterpret_cast<const float*>(buffer(data, "a").data.data()),
                                                       reinterpret_cast<const float*>(buffer(data, "b").data.data()), m, n, k, progress);
    ExpectedOutputs expected;
    expected.outputs.resize(data.buffers.size());
    expected.bounds.resize(data.buffers.size());
    const size_t c = static_cast<size_t>(data.index_of("c"));
    std::vector<unsigned char>& bytes = expected.outputs[c];
    bytes.resize(reference.c.size() * sizeof(float));
    auto* values = reinterpret_cast<float*>(bytes.data());
    for (size_t i = 0; i < reference.c.size(); ++i) values[i] = static_cast<float>(reference.c[i]);
    std::vector<double>& bound = expected.bounds[c];
    bound.resize(reference.abs_bound.size());
    const double scale = kUnitRoundoff * std::sqrt(static_cast<double>(k));
    for (size_t i = 0; i < bound.size(); ++i) bound[i] = scale * reference.abs_bound[i];
    return expected;
}

}  // namespace

std::vector<uint8_t> grayscale_reference(const uint8_t* planes, size_t pixels) {
    std::vector<uint8_t> gray(pixels);
    for (size_t i = 0; i < pixels; ++i) gray[i] = seed_gray(planes[i], planes[i + pixels], planes[i + 2 * pixels]);
    return gray;
}

MatmulReference matmul_reference(const float* a, const float* b, int64_t m, int64_t n, int64_t k, const ReferenceProgress& progress) {
    std::vector<double> a64(a, a + m * k), b64(b, b + k * n), abs_a(a64), abs_b(b64);
    for (auto& v : abs_a) v = std::fabs(v);
    for (auto& v : abs_b) v = std::fabs(v);
    MatmulReference reference;
    reference.c.assign(static_cast<size_t>(m * n), 0.0);
    reference.abs_bound.assign(static_cast<size_t>(m * n), 0.0);
    // In panels of rows, so a long reference (8192^3 takes a minute on two cores) reports real progress.
    const int64_t panels = std::min<int64_t>(m, 32);
    for (int64_t panel = 0; panel < panels; ++panel) {
        const int64_t first = m * panel / panels, rows = m * (panel + 1) / panels - first;
        if (rows == 0) continue;
        for (auto [lhs, out] : {std::pair{&a64, &reference.c}, std::pair{&abs_a, &reference.abs_bound}})
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(n), static_cast<int>(k), 1.0,
                        lhs->data() + first * k, static_cast<int>(k), (out == &reference.c ? b64 : abs_b).data(), static_cast<int>(n),
                        0.0, out->data() + first * n, static_cast<int>(n));
        if (progress) progress(static_cast<double>(panel + 1) / static_cast<double>(panels));
    }
    return reference;
}

ExpectedOutputs builtin_reference(BuiltinReference which, const TaskSpec& task, const TaskData& data, const ReferenceProgress& progress) {
    switch (which) {
        case BuiltinReference::grayscale_seed: return grayscale_outputs(data);
        case BuiltinReference::matmul_fp64: return matmul_outputs(data, progress);
        case BuiltinReference::none: break;
    }
    throw InputError("Task " + task.name + " names no built-in reference.");
}

}  // namespace kplay
