// The built-in test image, generated so that kplay needs no file to start.
#pragma once

#include "base/image_io.hpp"

namespace kplay {

constexpr int kDefaultImageWidth = 1280;
constexpr int kDefaultImageHeight = 800;

// Colour gradients, colour bars, rings, fine checks and text-like strokes: every channel varies, edges
// at every scale, no flat areas to hide an indexing bug. Deterministic for a given size.
PlanarImage make_default_image(int width = kDefaultImageWidth, int height = kDefaultImageHeight);

}  // namespace kplay
