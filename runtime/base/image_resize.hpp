// Scaling an image to the size a run asks for (a photo benched at several times the L2), through
// stb_image_resize.
#pragma once

#include "base/image_io.hpp"

namespace kplay {

// The image at width x height (each 1..kMaxImageSide), filtered per plane; the same image when the
// size is already its own. Throws InputError for a size out of range.
PlanarImage resize_image(const PlanarImage& image, int width, int height);

}  // namespace kplay
