// Procedural generation of the built-in image.
#include "base/default_image.hpp"

#include <cmath>
#include <cstdint>

#include "base/error.hpp"

namespace kplay {

namespace {

uint8_t clamp_byte(double v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

// Small deterministic per-pixel noise, so no two neighbouring pixels are exactly equal.
uint32_t noise(uint32_t x, uint32_t y) {
    uint32_t h = x * 374761393u + y * 668265263u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

void hue_to_rgb(double hue, double& r, double& g, double& b) {
    const double h = std::fmod(hue, 1.0) * 6.0;
    const double f = h - std::floor(h);
    switch (static_cast<int>(h)) {
        case 0: r = 1; g = f; b = 0; break;
        case 1: r = 1 - f; g = 1; b = 0; break;
        case 2: r = 0; g = 1; b = f; break;
        case 3: r = 0; g = 1 - f; b = 1; break;
        case 4: r = f; g = 0; b = 1; break;
        default: r = 1; g = 0; b = 1 - f; break;
    }
}

}  // namespace

PlanarImage make_default_image(int width, int height) {
    if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide)
        throw InputError("Built-in image size " + std::to_string(width) + "x" + std::to_string(height) +
                         " is out of range (1.." + std::to_string(kMaxImageSide) + " per side).");
    PlanarImage image;
    image.width = width;
    image.height = height;
    image.planes.resize(3 * image.pixels());
    const double cx = 0.70 * width, cy = 0.45 * height, radius = 0.30 * std::min(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const double u = static_cast<double>(x) / width, v = static_cast<double>(y) / height;
            double r, g, b;
            hue_to_rgb(u + 0.25 * v, r, g, b);
            const double light = 0.35 + 0.6 * (1.0 - v);
            r = 255 * (r * light + 0.1 * v);
            g = 255 * (g * light + 0.1 * v);
            b = 255 * (b * light + 0.1 * v);
            // Colour bars along the bottom fifth.
            if (v > 0.8) {
                static const double bars[8][3] = {{235, 235, 235}, {235, 235, 16}, {16, 235, 235}, {16, 235, 16},
                                                  {235, 16, 235},  {235, 16, 16},  {16, 16, 235},  {16, 16, 16}};
                const int bar = std::min(7, static_cast<int>(u * 8));
                r = bars[bar][0]; g = bars[bar][1]; b = bars[bar][2];
            }
            // Rings with a radial colour sweep.
            const double dx = x - cx, dy = y - cy, d = std::sqrt(dx * dx + dy * dy);
            if (d < radius) {
                const double ring = 0.5 + 0.5 * std::cos(d * 0.35);
                const double angle = std::atan2(dy, dx) / (2 * M_PI) + 0.5;
                double rr, rg, rb;
                hue_to_rgb(angle, rr, rg, rb);
                r = 255 * rr * ring; g = 255 * rg * ring; b = 255 * rb * (1 - ring) + 40;
            }
            // Fine checks (1, 2, 4, 8 pixels) in the upper-left quarter: aliasing and off-by-one show here.
            if (u < 0.25 && v < 0.4) {
                const int scale = 1 << std::min(3, static_cast<int>(u * 16));
                const bool on = ((x / scale) + (y / scale)) % 2 == 0;
                r = on ? 250 : 20; g = on ? 240 : 30; b = on ? 230 : 40;
            }
            // Diagonal strokes, like lines of text, across the middle band.
            if (v > 0.55 && v < 0.75 && u > 0.05 && u < 0.5 && (x + 2 * y) % 23 < 3 && (y / 12) % 2 == 0) {
                r *= 0.2; g *= 0.2; b *= 0.2;
            }
            const double grain = static_cast<double>(noise(x, y) % 9) - 4.0;
            const size_t i = static_cast<size_t>(y) * width + x;
            image.planes[i] = clamp_byte(r + grain);
            image.planes[image.pixels() + i] = clamp_byte(g + grain);
            image.planes[2 * image.pixels() + i] = clamp_byte(b + grain);
        }
    }
    return image;
}

}  // namespace kplay
