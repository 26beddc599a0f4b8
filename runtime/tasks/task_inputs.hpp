// A task's sizes and inputs: the sizes a run uses, and every buffer made from its declaration.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/image_io.hpp"
#include "kernel_file/task_sizes.hpp"
#include "kernel_file/task_spec.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// The sizes of a run: the text if given, else the task's default for the device (cpu: the emulated
// device). Tasks with an image input and an image file take w and h from the image instead.
std::vector<int64_t> choose_sizes(const TaskSpec& task, std::string_view size_text, bool cpu, const PlanarImage* image);

// Every buffer of the task at these sizes: inputs filled by their init (seeded: the buffer's own seed,
// else one derived from `seed` and the buffer's index, so buffers differ from each other and from the
// next seed), outputs sized and given their poison patterns, inout buffers both. An image init takes
// `image` (the caller loads the file, or makes the built-in image at w x h), laid out as declared.
// Throws InputError when a length does not evaluate, is not positive or is too large (more than
// 2^31 elements or 4 GiB), when an image does not fit its buffer, or when an input would be all zeros.
TaskData make_task_inputs(const TaskSpec& task, const std::vector<int64_t>& sizes, uint64_t seed, const PlanarImage* image,
                          std::string_view image_description);

// IEEE binary16 from float, round to nearest even (NaN, infinities and subnormals kept), and back.
uint16_t float_to_half(float value);
float half_to_float(uint16_t bits);

}  // namespace kplay
