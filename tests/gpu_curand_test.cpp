// cuRAND's device API on a GPU against the emulated device: tests/data/curand/draws.cu (every generator
// and distribution kplay runs) on device 0, its draws compared element by element with the same
// kernel's on the emulated device (a trusted reference kernel), and with the host reference that
// draws the same numbers through the same header. The integer draws and the uniforms must be exact;
// normals and log-normals within the checks draws.cu declares (the GPU's __sincosf against the exact
// sinf/cosf of the host build: README's "Random numbers: a dropout with cuRAND"); Poisson counts within
// one. Each buffer's largest difference is printed, for README's figures.
#include <gtest/gtest.h>

#include <cstdio>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

RunReport run_on_gpu(const std::filesystem::path& file) {
    RunRequest request;
    request.kernel_path = file;
    request.warmup = 0;
    request.repeat = 1;
    request.measure_ceiling = false;
    request.emulation_timeout_s = 120;  // the reference kernel's launch on the emulated device
    return test::scratch_engine().run(request);
}

void expect_every_buffer_passes(const RunReport& report) {
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_FALSE(report.emulated);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    std::printf("  against %s\n", report.check.reference.c_str());
    for (const BufferCheck& buffer : report.check.buffers) {
        EXPECT_TRUE(buffer.passed) << buffer.buffer << ": " << buffer.summary;
        std::printf("  %-16s %s (max abs error %.3g, max rel error %.3g)\n", buffer.buffer.c_str(), buffer.passed ? "PASS" : "FAIL",
                    buffer.max_abs_error, buffer.max_rel_error);
    }
}

TEST(GpuCurand, EveryDrawMatchesTheEmulatedDevicesElementByElement) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    // The same file with its reference made the emulated device's run of the same kernel.
    std::string source = test::read_file(test::data_dir() / "curand" / "draws.cu");
    const std::string task = "// kplay-task: extent=n";
    ASSERT_NE(source.find(task), std::string::npos);
    test::TempDir dir;
    dir.write("draws.cu", source);
    source.replace(source.find(task), task.size(), task + " reference=draws.cu:draws");
    expect_every_buffer_passes(run_on_gpu(dir.write("draws_against_emulated.cu", source)));
}

TEST(GpuCurand, EveryDrawMatchesTheHostReferences) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    expect_every_buffer_passes(run_on_gpu(test::data_dir() / "curand" / "draws.cu"));
}

}  // namespace
}  // namespace kplay
