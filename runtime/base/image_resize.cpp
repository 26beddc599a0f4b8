// stb_image_resize is built here, on its own, for the planes of a PlanarImage.
#include "base/image_resize.hpp"

#define STB_IMAGE_RESIZE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#endif
#include <stb_image_resize.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <string>

#include "base/error.hpp"

namespace kplay {

PlanarImage resize_image(const PlanarImage& image, int width, int height) {
    if (width < 1 || height < 1 || width > kMaxImageSide || height > kMaxImageSide ||
        static_cast<int64_t>(width) * height > kMaxImagePixels)
        throw InputError("Cannot scale the image to " + std::to_string(width) + "x" + std::to_string(height) + ": each side must be 1 to " +
                         std::to_string(kMaxImageSide) + " pixels.");
    if (width == image.width && height == image.height) return image;
    PlanarImage scaled;
    scaled.width = width;
    scaled.height = height;
    scaled.planes.resize(3 * scaled.pixels());
    // Each plane is a one-channel image; the planes are scaled alike.
    for (size_t c = 0; c < 3; ++c)
        if (!stbir_resize_uint8(image.planes.data() + c * image.pixels(), image.width, image.height, 0,
                                scaled.planes.data() + c * scaled.pixels(), width, height, 0, 1))
            throw InputError("Cannot scale the image to " + std::to_string(width) + "x" + std::to_string(height) + ".");
    return scaled;
}

}  // namespace kplay
