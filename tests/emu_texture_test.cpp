// Texture and surface objects on the emulated device, against values worked out here by hand from the
// CUDA Programming Guide's texture-fetching appendix: point sampling, linear filtering with its 9-bit
// fractional weights (77/256 where the exact weight is 0.3), the address modes, normalized coordinates,
// normalized-float reads of bytes, halves, channels, 3D and layered images, tex1Dfetch past the end;
// surfaces with their byte-addressed x and boundary modes; and what CUDA leaves undefined, refused with
// its reason. Then a whole task through the engine: a kplay-texture bilinear resize whose reference
// samples with reference/kplay_texture.h, a kplay-surface task whose output is the surface's buffer, and
// the GPU test's probes (tests/data/texture).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "emu/include/kplay_texture_abi.h"
#include "emu_harness.hpp"
#include "run/engine.hpp"

namespace kplay {
namespace {

using test::EmuKernel;

// One sample per thread: out[i] = tex2D<float>(t, x[i], y[i]) (or the fetch named by `fetch`).
std::string sampler(const std::string& fetch) {
    return "__global__ void k(cudaTextureObject_t t, const float* at, float* out, int n) {\n"
           "    int i = threadIdx.x;\n"
           "    if (i < n) out[i] = " + fetch + ";\n"
           "}\n";
}

kplay_image image_over(void* data, int format, long long w, long long h = 1, int dims = 2) {
    kplay_image image{};
    image.magic = KPLAY_IMAGE_MAGIC;
    image.format = format;
    image.channels = 1;
    image.dims = dims;
    image.in_array = dims > 1;
    image.width = w;
    image.height = h;
    image.depth = 1;
    image.layers = 1;
    image.data = static_cast<unsigned char*>(data);
    std::strcpy(image.name, "tex");
    return image;
}

// The samples of `kernel` at (x, y) pairs.
std::vector<float> sample(const EmuKernel& kernel, const kplay_image& image, const std::vector<std::pair<float, float>>& points, EmuKernel& buffers) {
    float* at = buffers.buffer<float>("at", 2 * points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        at[2 * i] = points[i].first;
        at[2 * i + 1] = points[i].second;
    }
    float* out = buffers.buffer<float>("out", points.size(), -99.0f);
    int n = static_cast<int>(points.size());
    unsigned long long handle = reinterpret_cast<unsigned long long>(&image);
    EmuKernel::Launch launch;
    launch.block = {static_cast<unsigned>(points.size()), 1, 1};
    const auto result = kernel.launch({&handle, &at, &out, &n}, launch);
    EXPECT_TRUE(result.ok) << result.error;
    return std::vector<float>(out, out + points.size());
}

// A 4x3 float image whose texel (x, y) holds 10y + x: small integers, so every filtered value is exact.
struct Grid {
    EmuKernel kernel{sampler("tex2D<float>(t, at[2 * i], at[2 * i + 1])")};
    float* texels = nullptr;
    Grid() {
        texels = kernel.buffer<float>("texels", 12);
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 4; ++x) texels[y * 4 + x] = static_cast<float>(10 * y + x);
    }
    kplay_image image(int filter, int address, bool normalized = false) {
        kplay_image image = image_over(texels, KPLAY_IMAGE_F32, 4, 3);
        image.filter = filter;
        image.address = address;
        image.normalized = normalized;
        return image;
    }
};

TEST(EmuTexture, PointSamplingTakesTheTexelUnderTheCoordinateAndClampsOrReadsTheBorder) {
    Grid grid;
    ASSERT_TRUE(grid.kernel.built()) << grid.kernel.diagnostics();
    const std::vector<std::pair<float, float>> points{{1.7f, 2.2f}, {0.0f, 0.0f}, {3.99f, 1.0f}, {-3.0f, 0.5f}, {10.0f, 10.0f}, {4.0f, 0.5f}};
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_POINT, KPLAY_ADDRESS_CLAMP), points, grid.kernel),
              (std::vector<float>{21, 0, 13, 0, 23, 3}));
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_POINT, KPLAY_ADDRESS_BORDER), points, grid.kernel),
              (std::vector<float>{21, 0, 13, 0, 0, 0}));
}

TEST(EmuTexture, LinearFilteringWeighsTexelCentresWithNineBitFractions) {
    Grid grid;
    ASSERT_TRUE(grid.kernel.built()) << grid.kernel.diagnostics();
    const std::vector<std::pair<float, float>> points{
        {1.75f, 0.5f},         // x - 0.5 = 1.25: 0.75 of texel 1, 0.25 of texel 2 -> 1.25
        {0.8f, 0.5f},          // x - 0.5 = 0.3: the weight 0.3 is held as 77/256 -> 77/256, not 0.3
        {0.5f + 1.0f / 512, 0.5f},  // a fraction of 0.5/256 rounds up to 1/256
        {1.75f, 1.25f},        // bilinear: 0.1875*1 + 0.0625*2 + 0.5625*11 + 0.1875*12 = 8.75
        {0.0f, 1.5f},          // half a texel before the first: clamp repeats it (10), border mixes in 0 (5)
        {4.0f, 2.5f},          // half a texel past the last: 23, and 11.5 with the border
        {2.5f, 1.5f}};         // a texel's centre: that texel, 12
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_LINEAR, KPLAY_ADDRESS_CLAMP), points, grid.kernel),
              (std::vector<float>{1.25f, 77.0f / 256, 1.0f / 256, 8.75f, 10, 23, 12}));
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_LINEAR, KPLAY_ADDRESS_BORDER), points, grid.kernel),
              (std::vector<float>{1.25f, 77.0f / 256, 1.0f / 256, 8.75f, 5, 11.5f, 12}));
}

TEST(EmuTexture, NormalizedCoordinatesScaleByTheExtentAndWrapOrMirror) {
    Grid grid;
    ASSERT_TRUE(grid.kernel.built()) << grid.kernel.diagnostics();
    // Point: u = 1.3 is texel 5 of 4 (wrap: 1, mirror: 2); u = -0.1 is texel -1 (wrap: 3, mirror: 0); v = 0.5 is row 1.
    const std::vector<std::pair<float, float>> point{{1.3f, 0.5f}, {-0.1f, 0.5f}, {0.625f, 0.9f}};
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_POINT, KPLAY_ADDRESS_WRAP, true), point, grid.kernel), (std::vector<float>{11, 13, 22}));
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_POINT, KPLAY_ADDRESS_MIRROR, true), point, grid.kernel), (std::vector<float>{12, 10, 22}));
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_POINT, KPLAY_ADDRESS_CLAMP, true), point, grid.kernel), (std::vector<float>{13, 10, 22}));
    // Linear at u = 0 (x = 0, half a texel before the first) on row 1 (v = 1.5/3): wrap mixes in the
    // last texel, mirror and clamp the first itself, border 0.
    const std::vector<std::pair<float, float>> linear{{0.0f, 0.5f}, {0.125f, 0.5f}};
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_LINEAR, KPLAY_ADDRESS_WRAP, true), linear, grid.kernel), (std::vector<float>{11.5f, 10}));
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_LINEAR, KPLAY_ADDRESS_MIRROR, true), linear, grid.kernel), (std::vector<float>{10, 10}));
    EXPECT_EQ(sample(grid.kernel, grid.image(KPLAY_FILTER_LINEAR, KPLAY_ADDRESS_BORDER, true), linear, grid.kernel), (std::vector<float>{5, 10}));
}

TEST(EmuTexture, BytesReadAsNormalizedFloatsAndAreFilteredAsFloats) {
    EmuKernel kernel(sampler("tex1D<float>(t, at[2 * i])"));
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    unsigned char* u8 = kernel.buffer<unsigned char>("u8", 3);
    u8[0] = 0, u8[1] = 255, u8[2] = 51;
    kplay_image bytes = image_over(u8, KPLAY_IMAGE_U8, 3, 1, 1);
    bytes.in_array = 1;
    bytes.read_normalized = 1;
    EXPECT_EQ(sample(kernel, bytes, {{0.5f, 0}, {1.5f, 0}, {2.5f, 0}}, kernel), (std::vector<float>{0.0f, 1.0f, 51.0f / 255.0f}));
    bytes.filter = KPLAY_FILTER_LINEAR;
    // Filtered in 16-bit fixed point (v*257 of 65535), as an H100 does: halfway between 0 and 255 is
    // 32768/65535 (128.5 steps rounded up), halfway between 255 and 51 exactly 39321/65535.
    EXPECT_EQ(sample(kernel, bytes, {{1.0f, 0}, {2.0f, 0}}, kernel), (std::vector<float>{32768.0f / 65535, 39321.0f / 65535}));
    signed char* i8 = kernel.buffer<signed char>("i8", 3);
    i8[0] = -128, i8[1] = -127, i8[2] = 127;
    kplay_image signed_bytes = image_over(i8, KPLAY_IMAGE_I8, 3, 1, 1);
    signed_bytes.in_array = 1;
    signed_bytes.read_normalized = 1;
    EXPECT_EQ(sample(kernel, signed_bytes, {{0.5f, 0}, {1.5f, 0}, {2.5f, 0}}, kernel), (std::vector<float>{-1.0f, -1.0f, 1.0f}));
    unsigned short* halves = kernel.buffer<unsigned short>("halves", 2);
    halves[0] = 0x3e00;  // 1.5
    halves[1] = 0x0001;  // the smallest subnormal, 2^-24
    kplay_image half_image = image_over(halves, KPLAY_IMAGE_F16, 2, 1, 1);
    half_image.in_array = 1;
    EXPECT_EQ(sample(kernel, half_image, {{0.5f, 0}, {1.5f, 0}}, kernel), (std::vector<float>{1.5f, 0x1p-24f}));
}

// Values an H100's texture unit returned (README "Textures and surfaces"), where the guide's formula
// computed in floats gives another answer.
TEST(EmuTexture, LinearFilteringGivesWhatAnH100Returned) {
    EmuKernel kernel(sampler("tex2D<float>(t, at[2 * i], at[2 * i + 1])"));
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    // 2D: the corner weights at (33/64, 33/64) are 248, 4, 4 and 0 of 256 (the product 16/65536 rounds
    // to 0), so 70.421875; the exact products give 70.3872.
    float* square = kernel.buffer<float>("square", 4);
    square[0] = 68, square[1] = 255, square[2] = 36, square[3] = 81;
    kplay_image image = image_over(square, KPLAY_IMAGE_F32, 2, 2);
    image.filter = KPLAY_FILTER_LINEAR;
    EXPECT_EQ(sample(kernel, image, {{33.0f / 64, 33.0f / 64}}, kernel), (std::vector<float>{70.421875f}));
    // 1D: 240/256 of one float texel and 16/256 of the next lie exactly between two floats; the GPU
    // rounds the tie away from zero (-663.73334), where round-to-even would give -663.7333.
    const uint32_t texel_bits[2] = {3290753909u, 3291816717u}, expected_bits = 3290820335u;
    float* pair = kernel.buffer<float>("pair", 2);
    std::memcpy(pair, texel_bits, sizeof texel_bits);
    kplay_image line = image_over(pair, KPLAY_IMAGE_F32, 2, 1);
    line.filter = KPLAY_FILTER_LINEAR;
    const std::vector<float> tie = sample(kernel, line, {{0.5f + 16.0f / 256, 0.5f}}, kernel);
    uint32_t tie_bits = 0;
    std::memcpy(&tie_bits, tie.data(), sizeof tie_bits);
    EXPECT_EQ(tie_bits, expected_bits) << tie[0];
    // u8 read as normalized floats: halfway between 0 and 1 is 129/65535 (0.0019684138), not 1/510.
    unsigned char* bytes = kernel.buffer<unsigned char>("bytes", 2);
    bytes[0] = 0, bytes[1] = 1;
    kplay_image unorm = image_over(bytes, KPLAY_IMAGE_U8, 2, 1);
    unorm.filter = KPLAY_FILTER_LINEAR;
    unorm.read_normalized = 1;
    EXPECT_EQ(sample(kernel, unorm, {{1.0f, 0.5f}}, kernel), (std::vector<float>{129.0f / 65535}));
}

TEST(EmuTexture, FetchByIndexChannelsThreeDimensionsAndLayers) {
    EmuKernel kernel(R"(
__global__ void k(cudaTextureObject_t linear, cudaTextureObject_t rgba, cudaTextureObject_t volume, cudaTextureObject_t layers, int* out, float* real) {
    out[0] = tex1Dfetch<int>(linear, 2);
    out[1] = tex1Dfetch<int>(linear, 3);   // past the end: 0
    out[2] = tex1Dfetch<int>(linear, -1);  // before the start: 0
    uchar4 c = tex2D<uchar4>(rgba, 1.5f, 0.5f);
    out[3] = c.x; out[4] = c.y; out[5] = c.z; out[6] = c.w;
    unsigned char first = tex2D<unsigned char>(rgba, 0.5f, 0.5f);  // fewer channels than the texture: the first
    out[7] = first;
    real[0] = tex3D<float>(volume, 1.0f, 1.0f, 1.0f);   // the centre of a 2x2x2 cube: the mean, 3.5
    real[1] = tex3D<float>(volume, 1.5f, 0.5f, 1.5f);   // texel (1,0,1): 5
    real[2] = tex2DLayered<float>(layers, 0.5f, 0.5f, 1);
    real[3] = tex2DLayered<float>(layers, 0.5f, 0.5f, 7);  // layer 7 of 2: the last
    tex2DLayered(&real[4], layers, 0.5f, 0.5f, -2);         // the out-parameter form; a negative layer reads the last, as on a GPU
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    int* ints = kernel.buffer<int>("ints", 3);
    ints[0] = 7, ints[1] = -8, ints[2] = 9;
    kplay_image linear = image_over(ints, KPLAY_IMAGE_I32, 3, 1, 1);
    linear.in_array = 0;
    unsigned char* pixels = kernel.buffer<unsigned char>("pixels", 8);
    for (int i = 0; i < 8; ++i) pixels[i] = static_cast<unsigned char>(10 + i);
    kplay_image rgba = image_over(pixels, KPLAY_IMAGE_U8, 2, 1);
    rgba.channels = 4;
    float* cube = kernel.buffer<float>("cube", 8);
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 2; ++x) cube[(z * 2 + y) * 2 + x] = static_cast<float>(x + 2 * y + 4 * z);
    kplay_image volume = image_over(cube, KPLAY_IMAGE_F32, 2, 2, 3);
    volume.depth = 2;
    volume.filter = KPLAY_FILTER_LINEAR;
    float* slices = kernel.buffer<float>("slices", 2);
    slices[0] = 100, slices[1] = 200;
    kplay_image layers = image_over(slices, KPLAY_IMAGE_F32, 1, 1);
    layers.layered = 1;
    layers.layers = 2;
    int* out = kernel.buffer<int>("out", 8, -1);
    float* real = kernel.buffer<float>("real", 5, -1.0f);
    unsigned long long handles[4] = {reinterpret_cast<unsigned long long>(&linear), reinterpret_cast<unsigned long long>(&rgba),
                                     reinterpret_cast<unsigned long long>(&volume), reinterpret_cast<unsigned long long>(&layers)};
    const auto result = kernel.launch({&handles[0], &handles[1], &handles[2], &handles[3], &out, &real}, {});
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(std::vector<int>(out, out + 8), (std::vector<int>{9, 0, 0, 14, 15, 16, 17, 10}));
    EXPECT_EQ(std::vector<float>(real, real + 5), (std::vector<float>{3.5f, 5, 200, 200, 200}));
}

TEST(EmuTexture, SurfacesAddressXInBytesWithCudasBoundaryModes) {
    EmuKernel kernel(R"(
__global__ void k(cudaSurfaceObject_t s, float* out) {
    int x = threadIdx.x, y = threadIdx.y;
    float v = surf2Dread<float>(s, x * 4, y);
    surf2Dwrite(v * 2 + 1, s, x * 4, y);
    if (x == 0 && y == 0) {
        out[0] = surf2Dread<float>(s, 12, 0, cudaBoundaryModeZero);    // x = 3 elements of 3: 0
        out[1] = surf2Dread<float>(s, -4, 5, cudaBoundaryModeClamp);   // clamped to (0, 1)
        surf2Dwrite(99.0f, s, 400, 0, cudaBoundaryModeZero);           // skipped
    }
}
)");
    ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
    float* data = kernel.buffer<float>("data", 6);
    for (int i = 0; i < 6; ++i) data[i] = static_cast<float>(i);
    kplay_image surface = image_over(data, KPLAY_IMAGE_F32, 3, 2);
    surface.surface = 1;
    unsigned long long handle = reinterpret_cast<unsigned long long>(&surface);
    float* out = kernel.buffer<float>("out", 2, -1.0f);
    EmuKernel::Launch launch;
    launch.block = {3, 2, 1};
    const auto result = kernel.launch({&handle, &out}, launch);
    ASSERT_TRUE(result.ok) << result.error;
    EXPECT_EQ(std::vector<float>(data, data + 6), (std::vector<float>{1, 3, 5, 7, 9, 11}));
    EXPECT_EQ(out[0], 0.0f);
    // Read before or after that element was written (another thread's), but it is one of the two.
    EXPECT_TRUE(out[1] == 3.0f || out[1] == 7.0f) << out[1];

    EmuKernel trap("__global__ void k(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 12, 1); }\n");
    ASSERT_TRUE(trap.built()) << trap.diagnostics();
    const auto trapped = trap.launch({&handle}, {});
    EXPECT_FALSE(trapped.ok);
    EXPECT_EQ(trapped.error_code, ErrorCode::cuda_launch_failed);
    EXPECT_NE(trapped.error.find("surf2Dwrite at x = 12 bytes (element 3), y = 1 is outside surface tex (2x3 f32); with cudaBoundaryModeTrap"),
              std::string::npos)
        << trapped.error;
    EmuKernel element_index("__global__ void k(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 1, 0); }\n");
    ASSERT_TRUE(element_index.built()) << element_index.diagnostics();
    const auto misaddressed = element_index.launch({&handle}, {});
    EXPECT_NE(misaddressed.error.find("surf2Dwrite at x = 1 on surface tex: x is a byte offset, and 1 is not a multiple of the element's 4 bytes"),
              std::string::npos)
        << misaddressed.error;
}

TEST(EmuTexture, WhatCudaLeavesUndefinedEndsTheKernelWithTheReason) {
    float texels[4] = {1, 2, 3, 4};
    kplay_image linear = image_over(texels, KPLAY_IMAGE_F32, 4, 1, 1);
    linear.in_array = 0;
    kplay_image grid = image_over(texels, KPLAY_IMAGE_F32, 2, 2);
    const struct {
        const char* fetch;
        const kplay_image* image;
        const char* says;
    } cases[] = {
        {"tex1D<float>(t, 0.5f)", &linear, "tex1D cannot read texture tex (4 f32, in linear memory): CUDA reads it with tex1Dfetch (tex1D reads a "
                                          "CUDA array: add layout=array to its kplay-texture line)"},
        {"tex2D<float>(t, 0.5f, 0.5f)", &linear, "tex2D cannot read texture tex (4 f32, in linear memory): CUDA reads it with tex1Dfetch"},
        {"tex2D<int>(t, 0.5f, 0.5f)", &grid, "tex2D reads texture tex as integer, but it returns floats (2x2 f32, read=element): ask for float, float2 or float4"},
        {"tex2D<float4>(t, 0.5f, 0.5f).x", &grid, "tex2D asks texture tex for 4 channels, but its elements have 1 (channels=1 on its kplay-texture line)"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.fetch);
        EmuKernel kernel(std::string("__global__ void k(cudaTextureObject_t t, float* out) { out[0] = ") + c.fetch + "; }\n");
        ASSERT_TRUE(kernel.built()) << kernel.diagnostics();
        float* out = kernel.buffer<float>("out", 1);
        unsigned long long handle = reinterpret_cast<unsigned long long>(c.image);
        const auto result = kernel.launch({&handle, &out}, {});
        EXPECT_FALSE(result.ok);
        EXPECT_NE(result.error.find(c.says), std::string::npos) << result.error;
        EXPECT_EQ(result.line, 1);
    }
}

// ---- whole tasks -----------------------------------------------------------------------------------------
class EmuTextureTasks : public ::testing::Test {
protected:
    RunReport run(const std::string& name, const std::string& source) {
        RunRequest request;
        request.kernel_path = dir_.write(name, source);
        request.emulate = true;
        request.emulation_timeout_s = 30;
        return engine_.run(request);
    }
    test::TempDir dir_;
    Engine engine_{[this] {
        EngineConfig config = default_engine_config();
        config.cache_dir = dir_.path() / "cache";
        return config;
    }()};
};

// A 2x bilinear upscale of a float image through a texture, checked exactly against the reference's
// kplay_tex2D over the same buffer.
const char* const kUpscale = R"(// kplay-sizes: h,w default=64x48 cpu=64x48 test=1x1,3x5,17x9
// kplay-buffer: img f32[h*w] in init=uniform(0,1)
// kplay-buffer: out f32[4*h*w] out shape=2*h,2*w check=exact
// kplay-texture: tex buffer=img shape=h,w filter=linear address=clamp
// kplay: args=tex,out,h,w launch=2d block=16,16
__global__ void upscale(cudaTextureObject_t tex, float* out, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 2 * w && y < 2 * h) out[y * 2 * w + x] = tex2D<float>(tex, (x + 0.5f) / 2, (y + 0.5f) / 2);
}
#ifdef KPLAY_REFERENCE
#include <kplay_texture.h>
void kplay_reference(const float* img, float* out, int h, int w) {
    const kplay_image tex = kplay_texture_2d(img, w, h, "filter=linear address=clamp");
    for (int y = 0; y < 2 * h; ++y)
        for (int x = 0; x < 2 * w; ++x) out[y * 2 * w + x] = kplay_tex2D<float>(tex, (x + 0.5f) / 2, (y + 0.5f) / 2);
}
#endif
)";

TEST_F(EmuTextureTasks, ABilinearUpscaleMatchesTheReferencesSamplerExactly) {
    const RunReport report = run("upscale.cu", kUpscale);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    bool bound = false;
    for (const auto& argument : report.arguments)
        if (argument.param == "tex") {
            bound = true;
            EXPECT_EQ(argument.kind, "texture");
            EXPECT_EQ(argument.value, "img 64x48 f32, linear, clamp");
        }
    EXPECT_TRUE(bound);
}

TEST_F(EmuTextureTasks, ASurfacesBufferIsTheOutputKplayChecks) {
    const RunReport report = run("surface_fill.cu", R"(// kplay-sizes: h,w default=30x20 cpu=30x20 test=1x1,7x3
// kplay-buffer: img u8[4*h*w] out check=exact
// kplay-surface: surf buffer=img shape=h,w channels=4
// kplay-task: extent=w,h
// kplay: args=surf,h,w launch=2d block=8,8
__global__ void fill(cudaSurfaceObject_t surf, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(make_uchar4(x, y, x ^ y, 255), surf, x * 4, y);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(unsigned char* img, int h, int w) {
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            unsigned char* p = img + 4 * (y * w + x);
            p[0] = x, p[1] = y, p[2] = x ^ y, p[3] = 255;
        }
}
#endif
)");
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
}

// The files tests/gpu_texture_test.cpp runs on a GPU pass here first: the probes against themselves
// (which proves the reference-kernel path binds textures too), the surface round trip against its reference.
TEST_F(EmuTextureTasks, TheGpuProbesRunOnTheEmulatedDevice) {
    for (const char* file : {"texture_probe.cu", "byte_probe.cu", "surface_round_trip.cu"}) {
        SCOPED_TRACE(file);
        RunRequest request;
        request.kernel_path = test::data_dir() / "texture" / file;
        request.emulate = true;
        request.emulation_timeout_s = 60;
        const RunReport report = engine_.run(request);
        ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
        EXPECT_TRUE(report.check.passed) << report.check.summary;
        EXPECT_EQ(report.check.sizes.size(), std::string(file) == "byte_probe.cu" ? 2u : 3u);
    }
}

TEST_F(EmuTextureTasks, AWrongDeclarationIsRefusedBeforeAnythingRuns) {
    std::string source = kUpscale;
    source.replace(source.find("address=clamp\n"), 14, "address=wrap\n");
    const RunReport report = run("upscale.cu", source);
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.error,
              "upscale.cu:4: kplay-texture: address=wrap needs normalized coordinates (CUDA wraps and mirrors only coordinates in [0,1)): "
              "add normalized=yes, or use clamp or border");
}

}  // namespace
}  // namespace kplay
