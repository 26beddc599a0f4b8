// On a GPU: the load_inline and PMPP-style files of tests/data/host_code (host code beside the kernel)
// compile to a CUBIN with their host code set aside, launch as their host code does, and pass their
// check at a regular and an irregular size.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

TEST(GpuHostCode, LoadInlineAndPmppFilesRunAsTheirHostCodeLaunches) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    Engine engine(default_engine_config());
    struct Case {
        const char* file;
        const char* size;
        Dim3 grid, block;
    };
    for (const Case& c : {Case{"grayscale_load_inline.cu", "7680x4320", {(7680 * 4320 + 255) / 256, 1, 1}, {256, 1, 1}},
                          Case{"grayscale_load_inline.cu", "1001x999", {(1001 * 999 + 255) / 256, 1, 1}, {256, 1, 1}},
                          Case{"matmul_load_inline.cu", "1024x1024x1024", {64, 64, 1}, {16, 16, 1}},
                          Case{"matmul_load_inline.cu", "1000x999x1001", {63, 63, 1}, {16, 16, 1}},
                          Case{"matmul_pmpp_main.cu", "1000x999x1001", {63, 63, 1}, {16, 16, 1}}}) {
        SCOPED_TRACE(std::string(c.file) + " at " + c.size);
        RunRequest request;
        request.kernel_path = test::data_dir() / "host_code" / c.file;
        request.inputs.size = c.size;
        request.warmup = 1;
        request.repeat = 3;
        request.measure_ceiling = false;
        const RunReport report = engine.run(request);
        ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
        EXPECT_TRUE(report.compile.is_cubin);
        EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
        EXPECT_EQ(report.launch.grid.x, c.grid.x);
        EXPECT_EQ(report.launch.grid.y, c.grid.y);
        EXPECT_EQ(report.launch.block.x, c.block.x);
        EXPECT_EQ(report.launch.block.y, c.block.y);
        EXPECT_FALSE(report.launch.auto_grid);
    }
}

}  // namespace
}  // namespace kplay
