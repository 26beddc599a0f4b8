// A texture or surface planned: a kplay-texture or kplay-surface line (kernel_file/texture_decl.hpp)
// evaluated at a run's sizes and checked against its buffer and against what CUDA's texture unit reads,
// so the device's object cannot fail on a value the user wrote. The device turns it into the 8-byte
// handle the kernel receives (device/device.hpp's bind_image); the host reference gets the buffer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/expression.hpp"
#include "kernel_file/task_spec.hpp"
#include "kernel_file/texture_decl.hpp"

namespace kplay {

struct PlanBuffer;

struct TexturePlan {
    TextureDecl decl;      // as the file declares it
    size_t argument = 0;   // its index in the launch's arguments
    int buffer = -1;       // the task buffer it reads (a surface: and writes)
    ElementType type = ElementType::f32;
    // Extents innermost first (width, height, depth), 1 where the shape has fewer; 0 layers: not layered.
    std::array<int64_t, 3> extent{1, 1, 1};
    int64_t layers = 0;
    int64_t elements() const { return extent[0] * extent[1] * extent[2] * (layers > 0 ? layers : 1); }
    size_t element_bytes() const { return element_size(type) * static_cast<size_t>(decl.channels); }
    size_t row_bytes() const { return static_cast<size_t>(extent[0]) * element_bytes(); }
    // "img 640x480 u8x4, linear, clamp, normalized-float reads", outermost first as the file writes it.
    std::string text() const;
};

// Throws InputError "kplay-texture NAME (line L): ..." naming the rule a value breaks: an extent below 1,
// a shape larger than the buffer, an element type CUDA's textures do not read (64-bit, bf16, fp8), a
// normalized-float read of what is not an 8-bit integer, linear filtering of what does not read as float.
TexturePlan plan_texture(const TextureDecl& decl, const NamedValues& names, const std::vector<PlanBuffer>& buffers);

}  // namespace kplay
