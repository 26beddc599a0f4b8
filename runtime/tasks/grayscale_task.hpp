// The grayscale task: planar 3xHxW uint8 RGB in, HxW uint8 gray out, the seed lecture's formula.
#pragma once

#include <cstdint>
#include <vector>

#include "tasks/task.hpp"

namespace kplay {

// The seed's expression, in double as the seed kernel computes it, truncated to a byte.
inline uint8_t seed_gray(uint8_t r, uint8_t g, uint8_t b) {
    return static_cast<uint8_t>(0.2989 * r + 0.5870 * g + 0.1140 * b);
}

// CPU reference over planar RGB.
std::vector<uint8_t> grayscale_reference(const uint8_t* planes, size_t pixels);

class GrayscaleTask final : public Task {
public:
    std::string name() const override { return "grayscale"; }
    std::string summary() const override { return "RGB (planar 3xHxW uint8) to gray (HxW uint8)"; }
    std::vector<std::string> value_names() const override { return {"in", "out", "w", "h", "n"}; }
    std::vector<std::string> canonical_args(size_t param_count) const override;
    int default_launch_dims(size_t param_count) const override { return param_count == 4 ? 2 : 1; }
    std::vector<std::string> default_block(int launch_dims) const override;
    TaskData make_inputs(const InputRequest& request) const override;
    std::array<int64_t, 3> extent(const TaskData& data, int launch_dims) const override;
    double bytes_moved(const TaskData& data) const override;
    double flops(const TaskData& data) const override;
    CheckReport check(const TaskData& data, const std::vector<HostBuffer>& previous_outputs, double tolerance,
                      bool keep_map) const override;
};

}  // namespace kplay
