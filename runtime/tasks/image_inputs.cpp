// Images laid out in input buffers as kernels read them, and read back for the window's input view.
#include "tasks/image_inputs.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "tasks/narrow_float.hpp"
#include "tasks/task_inputs.hpp"

namespace kplay {

namespace {

size_t per_pixel(ImageLayout layout) {
    switch (layout) {
        case ImageLayout::gray: return 1;
        case ImageLayout::rgba: return 4;
        default: return 3;
    }
}

const char* length_text(ImageLayout layout) {
    switch (layout) {
        case ImageLayout::gray: return "w*h";
        case ImageLayout::rgba: return "4*w*h";
        default: return "3*w*h";
    }
}

// Element i of a buffer an image filled, as a number (bytes as they are, floats decoded).
double element_value(const HostBuffer& buffer, size_t i) {
    const unsigned char* at = buffer.data.data() + i * element_size(buffer.type);
    switch (buffer.type) {
        case ElementType::f32: return std::bit_cast<float>(std::array<unsigned char, 4>{at[0], at[1], at[2], at[3]});
        case ElementType::f64: {
            double value = 0;
            std::memcpy(&value, at, sizeof value);
            return value;
        }
        case ElementType::f16: return half_to_float(static_cast<uint16_t>(at[0] | at[1] << 8));
        case ElementType::bf16: return decode_narrow(buffer.type, static_cast<uint32_t>(at[0] | at[1] << 8));
        case ElementType::fp8_e4m3:
        case ElementType::fp8_e5m2: return decode_narrow(buffer.type, at[0]);
        default: return at[0];
    }
}

}  // namespace

size_t image_values(ImageLayout layout, size_t pixels) { return per_pixel(layout) * pixels; }

std::string image_fit_problem(const PlanarImage& image, ImageLayout layout, size_t count) {
    const size_t pixels = image.pixels();
    const size_t needed = image_values(layout, pixels);
    if (count == needed) return "";
    std::string text = "the " + std::to_string(image.width) + "x" + std::to_string(image.height) + " image needs " + std::to_string(needed) +
                       " values (" + length_text(layout) + "), but the buffer has " + std::to_string(count);
    // A buffer sized for another layout most likely means that layout (an RGBA picture, a gray one).
    std::string other = ":";
    for (const ImageLayout candidate : {ImageLayout::rgba, ImageLayout::interleaved, ImageLayout::gray})
        if (per_pixel(candidate) != per_pixel(layout) && count == image_values(candidate, pixels))
            other = std::string(" = ") + length_text(candidate) + ", which image(" + spec_name(candidate) + ") fills: write init=image(" +
                    spec_name(candidate) + "), or";
    return text + other + " make its length " + length_text(layout) +
           ". An image of w x h pixels fills 3*w*h values (planar, interleaved), 4*w*h (rgba) or w*h (gray)";
}

std::vector<uint8_t> image_bytes(const PlanarImage& image, ImageLayout layout) {
    const size_t pixels = image.pixels();
    const uint8_t* planes = image.planes.data();
    std::vector<uint8_t> out(image_values(layout, pixels));
    switch (layout) {
        case ImageLayout::planar: std::memcpy(out.data(), planes, 3 * pixels); break;
        case ImageLayout::interleaved:
        case ImageLayout::rgba: {
            const size_t stride = per_pixel(layout);
            for (size_t p = 0; p < pixels; ++p) {
                for (size_t c = 0; c < 3; ++c) out[stride * p + c] = planes[c * pixels + p];
                if (stride == 4) out[4 * p + 3] = 255;
            }
            break;
        }
        case ImageLayout::gray:
            for (size_t p = 0; p < pixels; ++p)
                out[p] = static_cast<uint8_t>(
                    std::min(255.0, std::round(0.299 * planes[p] + 0.587 * planes[pixels + p] + 0.114 * planes[2 * pixels + p])));
            break;
    }
    return out;
}

std::vector<unsigned char> image_input_planes(const HostBuffer& buffer, const InitSpec& init) {
    const ImageLayout layout = init.layout;
    const size_t pixels = buffer.count / per_pixel(layout);
    const double to_byte = 255.0 / image_white(init, buffer.type);
    std::vector<unsigned char> planes(3 * pixels);
    for (size_t p = 0; p < pixels; ++p)
        for (size_t c = 0; c < 3; ++c) {
            const size_t i = layout == ImageLayout::planar ? c * pixels + p : layout == ImageLayout::gray ? p : per_pixel(layout) * p + c;
            const double value = element_value(buffer, i) * to_byte;
            planes[c * pixels + p] = std::isnan(value) ? 0 : static_cast<unsigned char>(std::clamp(std::round(value), 0.0, 255.0));
        }
    return planes;
}

}  // namespace kplay
