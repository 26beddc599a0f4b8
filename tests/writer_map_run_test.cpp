// What "Who wrote each pixel" asks the worker for and what it refuses: a GPU result is run again on the
// emulated device, tracked, at the size on screen, once and unchecked elsewhere; plots, outputs past the
// map's limit and launches too big to emulate are refused with the reason.
#include "session/writer_map_run.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

RunReport shown_image(int w, int h, int channels = 1) {
    RunReport report;
    report.stage = Stage::done;
    report.sizes = std::to_string(w) + "x" + std::to_string(h);
    report.view.kind = OutputKind::image;
    report.view.buffer = "out";
    report.view.width = w;
    report.view.height = h;
    report.view.channels = channels;
    return report;
}

}  // namespace

TEST(WriterMapRun, AGpuRequestIsRunAgainOnTheEmulatedDeviceTrackedAtTheSizeOnScreen) {
    RunRequest gpu;
    gpu.kernel_path = "kernels_src/grayscale/01_seed_1d.cu";
    gpu.device = 0;
    gpu.emulate = false;
    gpu.emulation_track = false;
    gpu.emulation_thorough = true;
    gpu.arch = "sm_90a";
    gpu.progressive = true;
    gpu.check_test_sizes = true;
    gpu.bench_sizes = true;
    gpu.warmup = 3;
    gpu.repeat = 20;
    gpu.measure_ceiling = true;
    gpu.baseline = Baseline::cublas_fp32;
    gpu.block = std::vector<int64_t>{64, 1, 1};
    const RunRequest map = WriterMapRun::mapping_request(gpu, shown_image(640, 480));
    EXPECT_TRUE(map.emulate);
    EXPECT_TRUE(map.emulation_track);
    EXPECT_FALSE(map.emulation_thorough);
    EXPECT_EQ(map.writer_map, "out");
    EXPECT_EQ(map.inputs.size, "640x480");
    EXPECT_FALSE(map.progressive);
    EXPECT_FALSE(map.check_test_sizes);
    EXPECT_FALSE(map.bench_sizes);
    EXPECT_EQ(map.warmup, 0);
    EXPECT_EQ(map.repeat, 1);
    EXPECT_FALSE(map.measure_ceiling);
    EXPECT_EQ(map.baseline, Baseline::none);
    EXPECT_EQ(map.arch, "");
    EXPECT_EQ(map.block, gpu.block) << "the launch on screen, as the user set it";
    EXPECT_EQ(map.kernel_path, gpu.kernel_path);
    EXPECT_GE(map.emulation_timeout_s, 60) << "a tracked launch is slower than the live loop's";
}

TEST(WriterMapRun, PlotsHugeOutputsAndLongLaunchesAreRefusedWithTheReason) {
    EXPECT_EQ(WriterMapRun::refusal(shown_image(640, 480)), "");
    RunReport series = shown_image(10, 1);
    series.view.kind = OutputKind::series;
    series.view.series.count = 1000;
    EXPECT_EQ(WriterMapRun::refusal(series), "") << "a 1D output is mapped along its index";
    series.view.series.count = 0;
    EXPECT_NE(WriterMapRun::refusal(series).find("no output"), std::string::npos);
    RunReport bars = shown_image(10, 1);
    bars.view.kind = OutputKind::bars;
    EXPECT_NE(WriterMapRun::refusal(bars).find("drawn as bars"), std::string::npos);
    RunReport scalar = shown_image(10, 1);
    scalar.view.kind = OutputKind::scalar;
    EXPECT_NE(WriterMapRun::refusal(scalar).find("single value"), std::string::npos);
    const std::string huge = WriterMapRun::refusal(shown_image(7680, 4320));
    EXPECT_NE(huge.find("33177600 elements"), std::string::npos) << huge;
    RunReport matmul;
    matmul.sizes = "4096x4096x1024";
    matmul.view.kind = OutputKind::matrix;
    matmul.view.buffer = "c";
    matmul.view.rows = 2048;
    matmul.view.cols = 2048;
    matmul.flops = 2.0 * 2048 * 2048 * 1024;
    const std::string slow = WriterMapRun::refusal(matmul);
    EXPECT_NE(slow.find("8 GFLOP"), std::string::npos) << slow;
    EXPECT_NE(slow.find("4096x4096x1024"), std::string::npos) << slow;
    matmul.flops = 2.0 * 2048 * 2048 * 64;  // 0.5 GFLOP: fine
    EXPECT_EQ(WriterMapRun::refusal(matmul), "");
}
