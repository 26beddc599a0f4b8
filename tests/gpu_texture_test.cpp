// Texture and surface objects on a GPU (kplay-texture, kplay-surface), against the emulated device: the
// probes in tests/data/texture take their own kernel, run on the emulated device, as the reference and
// check every output exactly, so a pass means the GPU's texture unit and kplay's sampler agree to the
// last bit (bilinear weights in 9-bit fixed point, every address mode, normalized coordinates,
// tex1Dfetch, tex1D over an array, layered textures; u8 and RGBA reads), except where README's
// "Textures and surfaces" says a GPU rounds otherwise: filtered i8 within one step of 1/32767, f16
// within one ulp of a half. The surface round trip
// reads and writes through surfaces over an inout and a layered buffer, checked against a host reference.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

class GpuTexture : public ::testing::Test {
protected:
    void SetUp() override {
        if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    }
    RunReport run(const std::string& file) {
        RunRequest request;
        request.kernel_path = test::data_dir() / "texture" / file;
        request.warmup = 1;
        request.repeat = 2;
        request.measure_ceiling = false;
        return engine_.run(request);
    }
    test::TempDir cache_;
    Engine engine_{[this] {
        EngineConfig config = default_engine_config();
        config.cache_dir = cache_.path();
        return config;
    }()};
};

// Every size's outputs, and why one failed: the summary names the first differing element, whose index
// gives its coordinate (texture_probe.cu: x = i/1024 - 2; `weights`: a fraction of i/1024).
void expect_exact(const RunReport& report) {
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_FALSE(report.emulated);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed || size.skipped) << size.sizes << ": " << size.summary;
}

TEST_F(GpuTexture, BilinearSamplesMatchTheEmulatedDeviceBitForBit) { expect_exact(run("texture_probe.cu")); }

TEST_F(GpuTexture, NormalizedBytesAndHalvesMatchTheEmulatedDevice) { expect_exact(run("byte_probe.cu")); }

TEST_F(GpuTexture, SurfaceWritesRoundTripThroughCudaArrays) { expect_exact(run("surface_round_trip.cu")); }

}  // namespace
}  // namespace kplay
