// The references of the built-in tasks, computed by kplay's own (trusted) code: the seed lecture's
// grayscale formula, and an fp64 OpenBLAS GEMM with its error bound.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel_file/task_spec.hpp"
#include "tasks/expected_outputs.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// The seed's expression, in double as the seed kernel computes it, truncated to a byte.
inline uint8_t seed_gray(uint8_t r, uint8_t g, uint8_t b) { return static_cast<uint8_t>(0.2989 * r + 0.5870 * g + 0.1140 * b); }

// CPU reference over planar RGB.
std::vector<uint8_t> grayscale_reference(const uint8_t* planes, size_t pixels);

// The fp64 reference C = A*B (row-major, A MxK, B KxN) and the bound S = |A|*|B| that scales each
// element's tolerance. `progress` (may be empty) hears how far it has got.
struct MatmulReference {
    std::vector<double> c;
    std::vector<double> abs_bound;
};
MatmulReference matmul_reference(const float* a, const float* b, int64_t m, int64_t n, int64_t k, const ReferenceProgress& progress = {});

// The task's expected outputs. Grayscale: the gray image. Matmul: C rounded to fp32, and the bound
// u * sqrt(K) * (|A||B|)ij per element (u = 2^-24), which the check scales by its `bound:` number.
ExpectedOutputs builtin_reference(BuiltinReference which, const TaskSpec& task, const TaskData& data, const ReferenceProgress& progress);

}  // namespace kplay
