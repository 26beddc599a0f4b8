// The task library on a GPU: every step of every ladder runs correct at its default size (large, a
// regular size) and at each of its test sizes (irregular ones), timed briefly.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

class TaskLibraryGpu : public ::testing::TestWithParam<fs::path> {
protected:
    // The full configuration: host references are built with the emulated device's headers.
    static Engine& engine() {
        static test::TempDir cache;
        static Engine instance([] {
            EngineConfig config = default_engine_config();
            config.kernels_include_dir = test::kernels_dir() / "include";
            config.cache_dir = cache.path();
            return config;
        }());
        return instance;
    }
};

TEST_P(TaskLibraryGpu, StepIsCorrectAtRegularAndIrregularSizes) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    RunRequest request;
    request.kernel_path = GetParam();
    request.warmup = 1;
    request.repeat = 3;
    request.measure_ceiling = false;
    const RunReport report = engine().run(request);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_FALSE(report.emulated);
    EXPECT_TRUE(report.compile.is_cubin);
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    for (const SizeCheck& size : report.check.sizes) {
        EXPECT_FALSE(size.skipped) << size.sizes << ": " << size.summary;
        EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    }
    EXPECT_GT(report.kernel_ms.median, 0);
}

INSTANTIATE_TEST_SUITE_P(Ladders, TaskLibraryGpu, ::testing::ValuesIn(test::task_library_files()),
                         [](const ::testing::TestParamInfo<fs::path>& info) { return test::test_name_of(info.param); });

}  // namespace
}  // namespace kplay
