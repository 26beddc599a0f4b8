// Texture and surface objects on a GPU (kplay-texture, kplay-surface), made with the driver's
// texture-object calls over a buffer of a set (device/device.hpp's BoundImage).
//
// Where the data sit is what the driver needs: a 1D texture reads the buffer as linear memory
// (tex1Dfetch), a 2D one as pitched memory, when the buffer's address and row pitch meet the device's
// texture alignments; otherwise, and for tex1D, layered, 3D textures and every surface, a CUDA array of
// the object's own, filled from the buffer before the set's launches and, for a surface, copied back into
// the buffer after them, so the buffer is what kplay checks. The copies go on the launches' stream,
// before the start event and after the stop event: outside the timing.
#pragma once

#include <cstdint>
#include <memory>

#include "cuda/cuda_handles.hpp"
#include "device/device.hpp"

namespace kplay {

// The device's CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT and _TEXTURE_PITCH_ALIGNMENT, in bytes.
struct TextureAlignment {
    uint64_t base = 512;
    uint64_t pitch = 32;
};

// Throws InputError naming the object and the driver's reason when the driver refuses it.
std::unique_ptr<BoundImage> bind_cuda_image(const TexturePlan& plan, uint64_t address, const Stream& stream, const TextureAlignment& alignment);

}  // namespace kplay
