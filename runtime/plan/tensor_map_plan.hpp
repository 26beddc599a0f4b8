// A TMA descriptor planned: a kplay-tma line (kernel_file/tensor_map_decl.hpp) evaluated at a run's sizes and
// checked against the rules cuTensorMapEncodeTiled enforces, so the worker's encode cannot fail on a
// value the user wrote. The device turns it into the 128 bytes the kernel receives, with the buffer's
// address in each set of buffers (device/device.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/expression.hpp"
#include "kernel_file/task_spec.hpp"
#include "kernel_file/tensor_map_decl.hpp"

namespace kplay {

struct PlanBuffer;

struct TensorMapPlan {
    std::string name;    // the argument's
    size_t argument = 0;  // its index in the launch's arguments
    int buffer = -1;      // the task buffer it describes
    ElementType type = ElementType::f32;
    TmaElement element = TmaElement::same;
    int rank = 0;
    // As the driver takes them: innermost dimension first; strides in bytes for dimensions 1..rank-1.
    std::array<uint64_t, 5> dims{};
    std::array<uint64_t, 4> strides{};
    std::array<uint32_t, 5> box{};
    TmaSwizzle swizzle = TmaSwizzle::none;
    // "a 4096x4096 f32, box 128x32, 128B swizzle", outermost first as the file writes it.
    std::string text() const;
};

// The 128 bytes of a CUtensorMap, as a kernel's __grid_constant__ parameter takes them.
struct alignas(64) TensorMapBytes {
    unsigned char bytes[128] = {};
};

// The index in `buffers` of the buffer a kplay-tma, kplay-texture or kplay-surface line names; throws
// InputError `at` + "buffer=NAME is not one of the task's buffers" when none.
int declared_buffer(const std::vector<PlanBuffer>& buffers, const std::string& name, const std::string& at);

// Throws InputError "kplay-tma NAME (line L): ..." naming the rule a value breaks: a box extent outside
// 1..256, an inner box that is not a multiple of 16 bytes or wider than the swizzle, a row pitch that is
// not a multiple of 16 bytes, a shape larger than the buffer, tf32 over a buffer that is not f32.
TensorMapPlan plan_tensor_map(const TensorMapDecl& decl, const NamedValues& names, const std::vector<PlanBuffer>& buffers);

}  // namespace kplay
