// An image in an input buffer, the way a kernel reads it: its pixels laid out as the init says (planar,
// interleaved RGB, RGBA, gray), as bytes or as float values in 0..1 or 0..255; whether an image fits a
// buffer, in words that name every length that would; and the way back, to the RGB planes the window's
// input view shows, whichever layout and type the buffer has.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/image_io.hpp"
#include "kernel_file/task_spec.hpp"
#include "tasks/task_data.hpp"

namespace kplay {

// How many values an image of `pixels` pixels takes in `layout`: 3 a pixel (planar, interleaved), 4
// (rgba) or 1 (gray).
size_t image_values(ImageLayout layout, size_t pixels);

// Why `image` cannot fill `count` values in `layout`, naming the length it needs, the layout the buffer's
// length would fit if one does, and every length an image fits; empty when it fits.
std::string image_fit_problem(const PlanarImage& image, ImageLayout layout, size_t count);

// The image's bytes in `layout`: rgba's alpha is 255 (opaque); gray is round(0.299 R + 0.587 G + 0.114 B).
std::vector<uint8_t> image_bytes(const PlanarImage& image, ImageLayout layout);

// The RGB planes (3 of w*h bytes) of an input an image init filled, for the window's input view: a float
// buffer's values scaled by its init's white (image_white) to bytes, rounded and clamped.
std::vector<unsigned char> image_input_planes(const HostBuffer& buffer, const InitSpec& init);

}  // namespace kplay
