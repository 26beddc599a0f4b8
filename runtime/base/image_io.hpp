// Reading, writing and scaling images: PNG and JPEG in through stb_image, PNG out through
// stb_image_write, scaled through stb_image_resize.
//
// Decoding is guarded: a dimension cap per side and a byte budget are checked from the header before any
// pixel is decoded, so a hostile file cannot make kplay allocate gigabytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kplay {

constexpr int kMaxImageSide = 16384;
constexpr int64_t kMaxImageFileBytes = 512ll << 20;
constexpr int64_t kMaxImagePixels = 16384ll * 16384;
// A photo holds far fewer pixels than this per byte of its file; a file that claims more (34 bytes of
// progressive JPEG claiming 105 million pixels, found by tests/fuzz) would only cost seconds and
// gigabytes to decode into nothing, so it is refused before decoding.
constexpr int64_t kMaxPixelsPerFileByte = 65536;

// Planar RGB: plane c (0=R, 1=G, 2=B) holds height*width bytes, row-major.
struct PlanarImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> planes;  // 3 * width * height
    size_t pixels() const { return static_cast<size_t>(width) * height; }
};

// Loads PNG or JPEG; gray and gray+alpha are replicated to RGB, alpha is dropped, 16-bit is scaled to 8.
// Throws InputError with a clear message for a missing, empty, corrupt, unsupported or oversized file.
PlanarImage load_image(const std::filesystem::path& path);
// `max_pixels` lower than kMaxImagePixels refuses larger images the same way (the fuzz target's, so
// that it looks for faults rather than timing faithful decodes of large images).
PlanarImage decode_image(const std::string& bytes, const std::string& name_for_messages, int64_t max_pixels = kMaxImagePixels);

// Writes a single-channel (gray) or planar-RGB image as PNG; throws InputError when it cannot.
void save_gray_png(const std::filesystem::path& path, const uint8_t* pixels, int width, int height);
// Interleaved pixels of 1 to 4 channels (gray, gray+alpha, RGB, RGBA).
void save_interleaved_png(const std::filesystem::path& path, const uint8_t* pixels, int width, int height, int channels);
void save_planar_png(const std::filesystem::path& path, const PlanarImage& image);

// The image at width x height (each 1..kMaxImageSide), filtered per plane (stb_image_resize): a photo
// at the size a run asks for. The same image when the size is its own. Throws InputError out of range.
PlanarImage resize_image(const PlanarImage& image, int width, int height);

}  // namespace kplay
