// Image loading: real photos, gray/RGBA/16-bit conversions, and corrupt, empty and hostile files.
#include <gtest/gtest.h>

#include <stb_image_write.h>

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

TEST(ImageIo, LoadsTheSeedPuppyAsPlanarRgb) {
    const std::filesystem::path puppy = test::shared_images_dir() / "puppy.jpg";
    ASSERT_TRUE(std::filesystem::exists(puppy)) << "shared/images/puppy.jpg is missing beside the checkout";
    const PlanarImage image = load_image(puppy);
    EXPECT_GT(image.width, 100);
    EXPECT_GT(image.height, 100);
    EXPECT_EQ(image.planes.size(), 3 * image.pixels());
    // A photo: the three planes differ.
    EXPECT_FALSE(std::equal(image.planes.begin(), image.planes.begin() + image.pixels(), image.planes.begin() + image.pixels()));
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
