// The matmul task: fp32 row-major C(MxN) = A(MxK) * B(KxN), checked against an fp64 CPU reference.
#pragma once

#include <cstdint>
#include <vector>

#include "tasks/task.hpp"

namespace kplay {

struct MatmulSize {
    int64_t m = 1024, n = 1024, k = 1024;
};

// "1024" (square), "MxN" (K = N) or "MxNxK"; throws InputError otherwise.
MatmulSize parse_matmul_size(const std::string& text);

// The fp64 reference C = A*B and the bound matrix S = |A|*|B| (which scales each element's tolerance).
struct MatmulReference {
    std::vector<double> c;
    std::vector<double> abs_bound;
};
MatmulReference matmul_reference(const float* a, const float* b, const MatmulSize& size);

class MatmulTask final : public Task {
public:
    std::string name() const override { return "matmul"; }
    std::string summary() const override { return "fp32 C = A*B, row-major, against an fp64 reference"; }
    std::vector<std::string> value_names() const override { return {"a", "b", "c", "M", "N", "K"}; }
    std::vector<std::string> canonical_args(size_t param_count) const override;
    int default_launch_dims(size_t) const override { return 2; }
    std::vector<std::string> default_block(int launch_dims) const override;
    TaskData make_inputs(const InputRequest& request) const override;
    std::array<int64_t, 3> extent(const TaskData& data, int launch_dims) const override;
    double bytes_moved(const TaskData& data) const override;
    double flops(const TaskData& data) const override;
    // Element (i,j) passes when |C-R| <= tolerance * u * sqrt(K) * (|A||B|)_ij, u = 2^-24 (default 2).
    CheckReport check(const TaskData& data, const std::vector<HostBuffer>& previous_outputs, double tolerance,
                      bool keep_map) const override;
};

}  // namespace kplay
