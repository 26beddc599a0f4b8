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
// stb_image allocates through these, so that one decode can be held to what its header's size needs.
#define STBI_MALLOC(size) kplay::stbi_budget_malloc(size)
#define STBI_REALLOC(pointer, size) kplay::stbi_budget_realloc(pointer, size)
#define STBI_FREE(pointer) std::free(pointer)
#include <cstdlib>
namespace kplay {
void* stbi_budget_malloc(size_t size);
void* stbi_budget_realloc(void* pointer, size_t size);
}  // namespace kplay
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

#include <algorithm>
#include <memory>
#include <optional>

#include "base/cache_dir.hpp"
#include "base/error.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// A PNG's zlib stream can inflate to far more than its header's image needs: stb grows its output by
// doubling up to 4 GiB, so a few MiB of crafted IDAT data made one decode allocate gigabytes. While a
// decode runs, no single allocation may exceed the budget its header's size allows (the 16-bit RGBA
// image twice over, the file's own bytes and 1 MiB of slack); a larger one fails, stb reports
// "outofmem", and decode_image names the real cause.
struct DecodeBudget {
    size_t max_allocation = 0;  // 0: no decode running, no limit
    bool exceeded = false;
};
thread_local DecodeBudget decode_budget;

// Sets the budget for one decode and clears it when the decode ends, however it ends.
class ScopedDecodeBudget {
public:
    explicit ScopedDecodeBudget(size_t max_allocation) noexcept { decode_budget = {max_allocation, false}; }
    ~ScopedDecodeBudget() noexcept { decode_budget = {}; }
    ScopedDecodeBudget(const ScopedDecodeBudget&) = delete;
    ScopedDecodeBudget& operator=(const ScopedDecodeBudget&) = delete;
};

bool over_budget(size_t size) {
    if (decode_budget.max_allocation == 0 || size <= decode_budget.max_allocation) return false;
    decode_budget.exceeded = true;
    return true;
}

}  // namespace

void* stbi_budget_malloc(size_t size) { return over_budget(size) ? nullptr : std::malloc(size); }
void* stbi_budget_realloc(void* pointer, size_t size) { return over_budget(size) ? nullptr : std::realloc(pointer, size); }

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

// The stb_image this builds against (Debian's 2.27) trusts a JPEG's Huffman table header: 16 code counts
// summing to more than 256 symbols overrun its 257-entry tables (found by tests/fuzz/fuzz_image; newer stb
// rejects such a table). stb reads a DHT segment only after an FF C4 byte pair, so each such pair is read
// here as stb would read it, and one whose table would overrun makes the file corrupt. Data that merely
// contains FF C4 (inside an ICC profile, say) and does not parse as such a table is left alone. Only a
// PNG is never read as a JPEG (stb finds a JPEG's start after any number of FF fill bytes).
bool has_oversized_huffman_table(const std::string& bytes) {
    auto byte = [&](size_t at) { return at < bytes.size() ? static_cast<unsigned char>(bytes[at]) : 0u; };
    if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0) return false;
    for (size_t marker = bytes.find("\xFF\xC4"); marker != std::string::npos; marker = bytes.find("\xFF\xC4", marker + 1)) {
        size_t at = marker + 2;
        int64_t left = ((int64_t{byte(at)} << 8) | byte(at + 1)) - 2;
        at += 2;
        while (left > 0 && at < bytes.size()) {
            const unsigned q = byte(at++);
            if ((q >> 4) > 1 || (q & 15) > 3) break;  // stb rejects the header itself
            int64_t symbols = 0;
            for (int i = 0; i < 16; ++i) symbols += byte(at++);
            if (symbols > 256) return true;
            at += static_cast<size_t>(symbols);
            left -= 17 + symbols;
        }
    }
    return false;
}

// One walk over a PNG's chunks, up to IEND, for two things stb gets wrong:
// - stb grows its buffer for an IDAT chunk to the length the chunk header claims before reading it, so a
//   tiny file claiming a 2 GiB chunk made it allocate 2 GiB (found by tests/fuzz/fuzz_image): a chunk
//   that runs past the end of the file makes the file corrupt here, first;
// - a zero-length IDAT chunk is valid PNG, but stb copies it with memcpy(NULL, data, 0) when it comes
//   first (undefined behaviour, found by tests/fuzz/fuzz_image): the file is decoded without its empty
//   IDAT chunks.
struct PngChunkWalk {
    bool past_end = false;
    std::optional<std::string> without_empty_idat;  // set only when there were empty IDAT chunks
};

PngChunkWalk walk_png_chunks(const std::string& bytes) {
    PngChunkWalk walk;
    if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return walk;
    auto byte = [&](size_t at) { return static_cast<uint64_t>(static_cast<unsigned char>(bytes[at])); };
    std::string kept = bytes.substr(0, 8);
    bool dropped = false;
    size_t at = 8;
    for (; at + 8 <= bytes.size() && bytes.compare(at + 4, 4, "IEND") != 0;) {
        const uint64_t length = (byte(at) << 24) | (byte(at + 1) << 16) | (byte(at + 2) << 8) | byte(at + 3);
        if (length + 12 > bytes.size() - at) {  // data and CRC must fit
            walk.past_end = true;
            return walk;
        }
        const size_t chunk = 12 + static_cast<size_t>(length);
        if (length == 0 && bytes.compare(at + 4, 4, "IDAT") == 0) dropped = true;
        else kept.append(bytes, at, chunk);
        at += chunk;
    }
    if (dropped) walk.without_empty_idat = kept.append(bytes, at, std::string::npos);  // IEND and what follows as they are
    return walk;
}

}  // namespace

PlanarImage decode_image(const std::string& bytes, const std::string& name, int64_t max_pixels) {
    if (bytes.empty()) throw InputError("Image " + name + " is empty (0 bytes).");
    if (static_cast<int64_t>(bytes.size()) > kMaxImageFileBytes)
        throw InputError("Image " + name + " is too large (" + std::to_string(bytes.size() >> 20) + " MiB; the limit is " +
                         std::to_string(kMaxImageFileBytes >> 20) + " MiB).");
    if (has_oversized_huffman_table(bytes))
        throw InputError("Cannot read " + name + ": corrupt JPEG (a Huffman table holds more than 256 symbols).");
    const PngChunkWalk png = walk_png_chunks(bytes);
    const std::string& file = png.without_empty_idat ? *png.without_empty_idat : bytes;
    const auto* data = reinterpret_cast<const stbi_uc*>(file.data());
    const int length = static_cast<int>(file.size());
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
        static_cast<int64_t>(width) * height > std::min(kMaxImagePixels, max_pixels))
        throw InputError("Image " + name + " is " + std::to_string(width) + "x" + std::to_string(height) + "; kplay accepts at most " +
                         (max_pixels < kMaxImagePixels ? std::to_string(max_pixels) + " pixels here."
                                                       : std::to_string(kMaxImageSide) + " pixels per side."));
    if (static_cast<int64_t>(width) * height > kMaxPixelsPerFileByte * static_cast<int64_t>(bytes.size()))
        throw InputError("Cannot decode " + name + ": it claims " + std::to_string(width) + "x" + std::to_string(height) + " pixels in " +
                         std::to_string(bytes.size()) + " bytes, more than any photo holds (a corrupt or hostile file).");

    // stbi_info stops at the first IDAT; decoding would allocate what a truncated chunk claims.
    if (png.past_end)
        throw InputError("Cannot decode " + name + ": corrupt PNG (a chunk runs past the end of the file).");

    PlanarImage image;
    image.width = width;
    image.height = height;
    image.planes.resize(3 * image.pixels());
    const size_t rows = static_cast<size_t>(height), row_bytes = static_cast<size_t>(width) * 4 * 2 + 1;
    const ScopedDecodeBudget budget(2 * rows * row_bytes + file.size() + (size_t{1} << 20));
    auto decode_failure = [&] {
        if (decode_budget.exceeded)
            return InputError("Cannot decode " + name + ": corrupt PNG (its compressed data inflates past what a " + std::to_string(width) +
                              "x" + std::to_string(height) + " image needs).");
        return InputError("Cannot decode " + name + ": " + (stbi_failure_reason() ? stbi_failure_reason() : "corrupt data") + ".");
    };
    const bool sixteen_bit = stbi_is_16_bit_from_memory(data, length);
    // Ask stb for RGB (it replicates gray and drops alpha), in 8 or 16 bits.
    if (sixteen_bit) {
        std::unique_ptr<stbi_us, void (*)(void*)> pixels(stbi_load_16_from_memory(data, length, &width, &height, &channels, 3),
                                                         stbi_image_free);
        if (!pixels) throw decode_failure();
        for (size_t i = 0; i < image.pixels(); ++i)
            for (int c = 0; c < 3; ++c)
                image.planes[c * image.pixels() + i] = static_cast<uint8_t>((pixels.get()[3 * i + c] * 255u + 32767u) / 65535u);
    } else {
        std::unique_ptr<stbi_uc, void (*)(void*)> pixels(stbi_load_from_memory(data, length, &width, &height, &channels, 3),
                                                         stbi_image_free);
        if (!pixels) throw decode_failure();
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
