// stb_image is built here with only the PNG and JPEG decoders (with stb_image_write and
// stb_image_resize beside it). Its own size limit stays at the default so
// that stbi_info reports a huge image's real size and kplay's cap can name it before anything is decoded.
#include "base/image_io.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#endif
#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_image_resize.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <memory>

#include "base/cache_dir.hpp"
#include "base/error.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// Reads width and height from a PNG or JPEG header without decoding, for the message when stb refuses
// an image as too large to even describe. Returns false when the header is not understood.
bool peek_image_size(const std::string& bytes, int64_t& width, int64_t& height) {
    auto byte = [&](size_t at) { return static_cast<int64_t>(static_cast<unsigned char>(bytes[at])); };
    auto be32 = [&](size_t at) { return (byte(at) << 24) | (byte(at + 1) << 16) | (byte(at + 2) << 8) | byte(at + 3); };
    if (bytes.size() >= 24 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0 && bytes.compare(12, 4, "IHDR") == 0) {
        width = be32(16);
        height = be32(20);
        return true;
    }
    if (bytes.size() < 4 || byte(0) != 0xFF || byte(1) != 0xD8) return false;
    for (size_t at = 2; at + 9 < bytes.size();) {
        if (byte(at) != 0xFF) return false;
        const int64_t marker = byte(at + 1);
        const size_t length = static_cast<size_t>((byte(at + 2) << 8) | byte(at + 3));
        const bool start_of_frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (start_of_frame) {
            height = (byte(at + 5) << 8) | byte(at + 6);
            width = (byte(at + 7) << 8) | byte(at + 8);
            return true;
        }
        at += 2 + length;
    }
    return false;
}

}  // namespace

PlanarImage decode_image(const std::string& bytes, const std::string& name) {
    if (bytes.empty()) throw InputError("Image " + name + " is empty (0 bytes).");
    if (static_cast<int64_t>(bytes.size()) > kMaxImageFileBytes)
        throw InputError("Image " + name + " is too large (" + std::to_string(bytes.size() >> 20) + " MiB; the limit is " +
                         std::to_string(kMaxImageFileBytes >> 20) + " MiB).");
    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int length = static_cast<int>(bytes.size());
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, length, &width, &height, &channels)) {
        const char* why = stbi_failure_reason();
        int64_t claimed_width = 0, claimed_height = 0;
        if (peek_image_size(bytes, claimed_width, claimed_height) &&
            (claimed_width > kMaxImageSide || claimed_height > kMaxImageSide))
            throw InputError("Image " + name + " is " + std::to_string(claimed_width) + "x" + std::to_string(claimed_height) +
                             "; kplay accepts at most " + std::to_string(kMaxImageSide) + " pixels per side.");
        throw InputError("Cannot read " + name + ": not a PNG or JPEG image" + (why ? std::string(" (") + why + ")" : "") + ".");
    }
    if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide ||
        static_cast<int64_t>(width) * height > kMaxImagePixels)
        throw InputError("Image " + name + " is " + std::to_string(width) + "x" + std::to_string(height) +
                         "; kplay accepts at most " + std::to_string(kMaxImageSide) + " pixels per side.");

    PlanarImage image;
    image.width = width;
    image.height = height;
    image.planes.resize(3 * image.pixels());
    const bool sixteen_bit = stbi_is_16_bit_from_memory(data, length);
    // Ask stb for RGB (it replicates gray and drops alpha), in 8 or 16 bits.
    if (sixteen_bit) {
        std::unique_ptr<stbi_us, void (*)(void*)> pixels(stbi_load_16_from_memory(data, length, &width, &height, &channels, 3),
                                                         stbi_image_free);
        if (!pixels) throw InputError("Cannot decode " + name + ": " + (stbi_failure_reason() ? stbi_failure_reason() : "corrupt data") + ".");
        for (size_t i = 0; i < image.pixels(); ++i)
            for (int c = 0; c < 3; ++c)
                image.planes[c * image.pixels() + i] = static_cast<uint8_t>((pixels.get()[3 * i + c] * 255u + 32767u) / 65535u);
    } else {
        std::unique_ptr<stbi_uc, void (*)(void*)> pixels(stbi_load_from_memory(data, length, &width, &height, &channels, 3),
                                                         stbi_image_free);
        if (!pixels) throw InputError("Cannot decode " + name + ": " + (stbi_failure_reason() ? stbi_failure_reason() : "corrupt data") + ".");
        for (size_t i = 0; i < image.pixels(); ++i)
            for (int c = 0; c < 3; ++c) image.planes[c * image.pixels() + i] = pixels.get()[3 * i + c];
    }
    return image;
}

PlanarImage load_image(const fs::path& path) {
    std::error_code error;
    if (!fs::exists(path, error)) throw InputError("Image not found: " + path.string());
    if (!fs::is_regular_file(path, error)) throw InputError("Not a regular file: " + path.string());
    const auto size = fs::file_size(path, error);
    if (!error && static_cast<int64_t>(size) > kMaxImageFileBytes)
        throw InputError("Image " + path.string() + " is too large (" + std::to_string(size >> 20) + " MiB; the limit is " +
                         std::to_string(kMaxImageFileBytes >> 20) + " MiB).");
    std::string bytes;
    if (!read_whole_file(path, bytes)) throw InputError("Cannot read image " + path.string());
    return decode_image(bytes, path.string());
}

namespace {
void write_png(const fs::path& path, int width, int height, int channels, const uint8_t* interleaved) {
    if (!stbi_write_png(path.c_str(), width, height, channels, interleaved, width * channels))
        throw InputError("Cannot write PNG " + path.string() + " (is the folder writable?)");
}
}  // namespace

void save_gray_png(const fs::path& path, const uint8_t* pixels, int width, int height) {
    write_png(path, width, height, 1, pixels);
}

void save_interleaved_png(const fs::path& path, const uint8_t* pixels, int width, int height, int channels) {
    write_png(path, width, height, channels, pixels);
}

void save_planar_png(const fs::path& path, const PlanarImage& image) {
    std::vector<uint8_t> interleaved(3 * image.pixels());
    for (size_t i = 0; i < image.pixels(); ++i)
        for (int c = 0; c < 3; ++c) interleaved[3 * i + c] = image.planes[c * image.pixels() + i];
    write_png(path, image.width, image.height, 3, interleaved.data());
}

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
