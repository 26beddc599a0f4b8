// Image loading: real photos, gray/RGBA/16-bit conversions, and corrupt, empty and hostile files.
#include <gtest/gtest.h>

#include <stb_image_write.h>
#include <zlib.h>

#include "base/default_image.hpp"
#include "base/error.hpp"
#include "base/image_io.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {
std::string message_for(const std::filesystem::path& path) {
    try {
        load_image(path);
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}
}  // namespace

// The repository's photo, baseline and progressive (the seed lecture's puppy.jpg is progressive): the
// same pixels either way, as planar RGB.
TEST(ImageIo, LoadsTheRepositorysPhotoBaselineAndProgressiveAsPlanarRgb) {
    const PlanarImage image = load_image(test::images_dir() / "grace_hopper.jpg");
    EXPECT_EQ(image.width, 517);
    EXPECT_EQ(image.height, 606);
    EXPECT_EQ(image.planes.size(), 3 * image.pixels());
    // A photo: the three planes differ.
    EXPECT_FALSE(std::equal(image.planes.begin(), image.planes.begin() + image.pixels(), image.planes.begin() + image.pixels()));
    const PlanarImage progressive = load_image(test::images_dir() / "grace_hopper_progressive.jpg");
    EXPECT_EQ(progressive.width, image.width);
    EXPECT_EQ(progressive.planes, image.planes);
}

TEST(ImageIo, RoundTripsPngAndConvertsGrayAndRgba) {
    test::TempDir dir;
    const PlanarImage original = make_default_image(31, 17);
    save_planar_png(dir.path() / "rgb.png", original);
    const PlanarImage loaded = load_image(dir.path() / "rgb.png");
    EXPECT_EQ(loaded.width, 31);
    EXPECT_EQ(loaded.planes, original.planes);

    const std::vector<uint8_t> gray{0, 50, 100, 150, 200, 250};
    save_gray_png(dir.path() / "gray.png", gray.data(), 3, 2);
    const PlanarImage from_gray = load_image(dir.path() / "gray.png");
    for (int c = 0; c < 3; ++c)
        EXPECT_EQ(std::vector<uint8_t>(from_gray.planes.begin() + c * 6, from_gray.planes.begin() + (c + 1) * 6), gray);

    const std::vector<uint8_t> rgba{10, 20, 30, 0, 40, 50, 60, 255};  // alpha is dropped, colour kept
    ASSERT_TRUE(stbi_write_png((dir.path() / "rgba.png").c_str(), 2, 1, 4, rgba.data(), 8));
    const PlanarImage from_rgba = load_image(dir.path() / "rgba.png");
    EXPECT_EQ(from_rgba.planes, (std::vector<uint8_t>{10, 40, 20, 50, 30, 60}));

    ASSERT_TRUE(stbi_write_jpg((dir.path() / "gray.jpg").c_str(), 3, 2, 1, gray.data(), 95));
    EXPECT_EQ(load_image(dir.path() / "gray.jpg").width, 3);
}

TEST(ImageIo, ScalesSixteenBitToEight) {
    test::TempDir dir;
    const std::vector<unsigned short> rgb{0, 65535, 32896, 257, 514, 65278};
    const auto path = dir.write("deep.png", test::encode_png16_rgb(2, 1, rgb.data()));
    const PlanarImage image = load_image(path);
    EXPECT_EQ(image.planes, (std::vector<uint8_t>{0, 1, 255, 2, 128, 254}));
}

TEST(ImageIo, ClearErrorsForBadFiles) {
    test::TempDir dir;
    EXPECT_NE(message_for(dir.path() / "nope.png").find("not found"), std::string::npos);
    EXPECT_NE(message_for(dir.write("empty.png", "")).find("empty"), std::string::npos);
    EXPECT_NE(message_for(dir.write("text.png", "hello, not an image")).find("not a PNG or JPEG"), std::string::npos);
    EXPECT_NE(message_for(dir.path()).find("Not a regular file"), std::string::npos);

    // A real PNG cut in half: the header is fine, the pixels are not.
    save_planar_png(dir.path() / "full.png", make_default_image(64, 64));
    const std::string full = test::read_file(dir.path() / "full.png");
    const std::string truncated = message_for(dir.write("cut.png", full.substr(0, full.size() / 2)));
    EXPECT_NE(truncated.find("Cannot decode"), std::string::npos) << truncated;

    // A header that claims 100000 x 100000 pixels must be refused before any decoding.
    std::string huge = full;
    const size_t ihdr = huge.find("IHDR") + 4;
    const char big[8] = {0, 1, static_cast<char>(0x86), static_cast<char>(0xA0), 0, 1, static_cast<char>(0x86), static_cast<char>(0xA0)};
    huge.replace(ihdr, 8, big, 8);
    const std::string oversized = message_for(dir.write("huge.png", huge));
    EXPECT_NE(oversized.find("16384"), std::string::npos) << "[" << oversized << "]";
}

TEST(ImageIo, DefaultImageHasColourAndDetail) {
    const PlanarImage image = make_default_image();
    EXPECT_EQ(image.width, kDefaultImageWidth);
    EXPECT_EQ(image.height, kDefaultImageHeight);
    std::vector<int> histogram(256, 0);
    for (size_t i = 0; i < image.pixels(); ++i) ++histogram[image.planes[i]];
    EXPECT_GT(std::count_if(histogram.begin(), histogram.end(), [](int c) { return c > 0; }), 200);
    EXPECT_EQ(make_default_image(40, 30).planes, make_default_image(40, 30).planes);  // deterministic
    EXPECT_THROW(make_default_image(0, 10), InputError);
}

// A photo benched at a size of the user's: scaled per plane, its colours kept.
TEST(ImageIo, ResizeScalesEachPlaneAndKeepsFlatColours) {
    kplay::PlanarImage image;
    image.width = 4;
    image.height = 2;
    image.planes.assign(3 * 8, 0);
    for (size_t i = 0; i < 8; ++i) {
        image.planes[i] = 200;      // red everywhere
        image.planes[8 + i] = 10;   // green
        image.planes[16 + i] = static_cast<uint8_t>(i % 4 < 2 ? 0 : 255);  // blue: left half 0, right half 255
    }
    const kplay::PlanarImage scaled = kplay::resize_image(image, 64, 32);
    ASSERT_EQ(scaled.width, 64);
    ASSERT_EQ(scaled.height, 32);
    ASSERT_EQ(scaled.planes.size(), 3u * 64 * 32);
    const size_t n = scaled.pixels();
    for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(scaled.planes[i], 200);
        EXPECT_EQ(scaled.planes[n + i], 10);
    }
    EXPECT_EQ(scaled.planes[2 * n + 0], 0);     // the left edge stays dark
    EXPECT_EQ(scaled.planes[2 * n + 63], 255);  // the right edge bright
    EXPECT_THROW(kplay::resize_image(image, 0, 10), kplay::InputError);
    EXPECT_THROW(kplay::resize_image(image, kplay::kMaxImageSide + 1, 10), kplay::InputError);
}

// Found by tests/fuzz (fuzz_image): a JPEG Huffman table of more than 256 symbols overran stb_image's
// tables (memory corruption); it is a corrupt file now.
TEST(ImageIo, OversizedJpegHuffmanTableIsCorrupt) {
    std::string jpeg = "\xFF\xD8\xFF\xC4";
    jpeg += std::string("\x00\x13\x00", 3);   // DHT length 19, class 0 table 0
    jpeg += std::string(16, '\x11');          // 16 x 17 = 272 symbols
    jpeg += std::string(272, '\x01');
    jpeg += "\xFF\xD9";
    // stb also finds the start of a JPEG after FF fill bytes.
    for (const std::string& bytes : {jpeg, std::string(13, '\xFF') + jpeg}) {
        try {
            decode_image(bytes, "bad.jpg");
            ADD_FAILURE() << "expected an InputError";
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find("Huffman table"), std::string::npos) << error.what();
        }
    }
}

// Found by tests/fuzz (fuzz_image): a PNG whose chunk claims 2 GiB made stb_image allocate 2 GiB before
// finding the file too short; it is a corrupt file now.
TEST(ImageIo, APngChunkPastTheEndIsCorrupt) {
    std::string png("\x89PNG\r\n\x1a\n", 8);
    png += std::string("\x00\x00\x00\x0dIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00\x00\x00\x00\x00", 25);
    png += std::string("\x7f\xff\xff\xf0IDAT\x78\x9c", 10);
    try {
        decode_image(png, "bad.png");
        FAIL() << "expected an InputError";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("runs past the end"), std::string::npos) << error.what();
    }
}

namespace {
// A PNG of the given chunks after a 2x2 RGB header (stb does not check CRCs, so they are left zero).
std::string png_2x2_rgb(const std::vector<std::string>& idat_chunks) {
    auto chunk = [](const std::string& type, const std::string& data) {
        std::string out;
        for (int shift : {24, 16, 8, 0}) out += static_cast<char>((data.size() >> shift) & 0xFF);
        return out + type + data + std::string(4, '\0');
    };
    std::string png("\x89PNG\r\n\x1a\n", 8);
    png += chunk("IHDR", std::string("\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00", 13));
    for (const std::string& data : idat_chunks) png += chunk("IDAT", data);
    return png + chunk("IEND", "");
}

std::string zlib_of(const std::string& raw) {
    uLongf length = compressBound(raw.size());
    std::string out(length, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &length, reinterpret_cast<const Bytef*>(raw.data()), raw.size(), 9) != Z_OK)
        ADD_FAILURE() << "zlib failed";
    out.resize(length);
    return out;
}

// Two rows of filter byte 0 and two RGB pixels.
const std::string kRows2x2("\x00\x10\x20\x30\x40\x50\x60\x00\x70\x80\x90\xA0\xB0\xC0", 14);
}  // namespace

// Found by tests/fuzz (fuzz_image, UBSan): stb copied a leading zero-length IDAT chunk with
// memcpy(NULL, data, 0). Such a chunk is valid PNG; the file decodes as it would without it.
TEST(ImageIo, AnEmptyFirstIdatChunkDecodesAsWithoutIt) {
    const PlanarImage plain = decode_image(png_2x2_rgb({zlib_of(kRows2x2)}), "plain.png");
    const PlanarImage with_empty = decode_image(png_2x2_rgb({"", zlib_of(kRows2x2), ""}), "empty-idat.png");
    ASSERT_EQ(plain.width, 2);
    EXPECT_EQ(plain.planes[0], 0x10);
    EXPECT_EQ(plain.planes[3], 0xA0);
    EXPECT_EQ(with_empty.planes, plain.planes);
    // Only empty chunks: no image data at all is a clear error, not a crash.
    EXPECT_THROW(decode_image(png_2x2_rgb({""}), "no-data.png"), InputError);
}

// A 2x2 PNG whose IDAT inflates to 16 MiB (8 KiB of zlib): stb grew its output to hold it all (by doubling,
// up to 4 GiB for a file of a few MiB). The decode is now held to what a 2x2 image needs.
TEST(ImageIo, APngThatInflatesPastItsSizeIsCorrupt) {
    std::string raw = kRows2x2 + std::string(16u << 20, '\0');
    const std::string bomb = png_2x2_rgb({zlib_of(raw)});
    ASSERT_LT(bomb.size(), 64u << 10);
    try {
        decode_image(bomb, "bomb.png");
        FAIL() << "expected an InputError";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("inflates past what a 2x2 image needs"), std::string::npos) << error.what();
    }
}

// Found by tests/fuzz (fuzz_image, UBSan): corrupt entropy-coded data makes stb 2.27's JPEG bit reader
// shift by more than 31 (see tests/fuzz/CMakeLists.txt). It touches no memory, and the file is refused.
TEST(ImageIo, AJpegWhoseBitReaderRunsDryIsRefused) {
    EXPECT_NE(message_for(std::filesystem::path(KPLAY_TEST_DATA_DIR) / "../fuzz/corpus/image/regress_jpeg_bit_count_below_zero.jpg")
                  .find("Cannot decode"),
              std::string::npos);
}

// Found by tests/fuzz (fuzz_image, a timeout): 34 bytes of progressive JPEG claiming 8706x12075 pixels
// (8706 wide) took 30 s and gigabytes to decode. More pixels than kMaxPixelsPerFileByte per byte is refused at once.
TEST(ImageIo, AFileClaimingFarMorePixelsThanItsBytesHoldIsRefused) {
    const std::string message =
        message_for(std::filesystem::path(KPLAY_TEST_DATA_DIR) / "../fuzz/corpus/image/regress_jpeg_claims_105_megapixels_in_34_bytes.jpg");
    EXPECT_NE(message.find("claims 8706x12075 pixels in 34 bytes"), std::string::npos) << message;
}
