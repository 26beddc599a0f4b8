// The task library on the emulated CPU device (CI): every step of every ladder runs correct at its
// default CPU size, at each of its test sizes (edge cases: one element, sizes that are not multiples
// of the block or the vector width) and with a second seed. No size may be skipped: a step that needs
// a constraint must say so, and the ladders' steps are written to need none.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

class TaskLibraryEmulated : public ::testing::TestWithParam<fs::path> {
protected:
    static Engine& engine() {
        static test::TempDir cache;
        static Engine instance([] {
            EngineConfig config = default_engine_config();
            config.cache_dir = cache.path();
            return config;
        }());
        return instance;
    }
};

TEST_P(TaskLibraryEmulated, StepIsCorrectAtEveryTestSize) {
    RunRequest request;
    request.kernel_path = GetParam();
    request.emulate = true;
    request.emulation_timeout_s = 120;
    const RunReport report = engine().run(request);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    ASSERT_TRUE(report.spec);
    EXPECT_FALSE(report.spec->task.builtin);
    // The test sizes and the second seed: every one ran and passed.
    EXPECT_EQ(report.check.sizes.size(), report.spec->task.sizes.test.size() + 1);
    for (const SizeCheck& size : report.check.sizes) {
        EXPECT_FALSE(size.skipped) << size.sizes << ": " << size.summary;
        EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    }
    // A ladder is measured against a ceiling: each step names one and counts its bytes.
    EXPECT_NE(report.spec->task.cost.ceiling, CeilingKind::none);
    EXPECT_FALSE(report.spec->task.cost.bytes.empty());
}

INSTANTIATE_TEST_SUITE_P(Ladders, TaskLibraryEmulated, ::testing::ValuesIn(test::task_library_files()),
                         [](const ::testing::TestParamInfo<fs::path>& info) { return test::test_name_of(info.param); });

// The library is what the README and the window's picker promise: these ladders, each several steps.
TEST(TaskLibrary, HasTheSevenLaddersEachWithItsSteps) {
    const auto files = test::task_library_files();
    for (const std::string task : {"vector_add", "reduction", "scan", "histogram", "transpose", "softmax", "blur"}) {
        size_t steps = 0;
        for (const auto& file : files) steps += file.parent_path().filename() == task;
        EXPECT_GE(steps, task == "vector_add" ? 3u : 4u) << task;
        EXPECT_TRUE(fs::exists(test::kernels_dir() / task / "reference.h")) << task;
    }
}

}  // namespace
}  // namespace kplay
