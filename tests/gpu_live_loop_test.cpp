// The live loop on a GPU: a save that changes only the kernel finds its inputs still on the device
// (nothing allocated or uploaded) and its reference in the cache (no reference run).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <thread>

#include "session/kernel_session.hpp"
#include "session_pump.hpp"
#include "test_support.hpp"

using namespace kplay;
using kplay::test::pump_until;
using namespace std::chrono_literals;

namespace {

// The seed kernel, copied where a test may edit it, in a session on the GPU with a cache of its own.
class GpuLiveLoop : public ::testing::Test {
protected:
    void SetUp() override {
        if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
        std::ifstream seed(test::kernels_dir() / "grayscale" / "01_seed_1d.cu");
        text_.assign((std::istreambuf_iterator<char>(seed)), std::istreambuf_iterator<char>());
        WorkerOptions options;
        options.worker_path = test::worker_path();
        options.extra_environment = {"XDG_CACHE_HOME=" + (dir_.path() / "cache").string()};
        session_.emplace(options);
        session_->open(dir_.write("kernels/grayscale/seed.cu", text_));
        ASSERT_TRUE(pump_until(*session_, [&] { return session_->last() && !session_->busy(); }));
        ASSERT_TRUE(session_->last()->ok()) << session_->last()->error;
    }

    test::TempDir dir_;
    std::string text_;
    std::optional<KernelSession> session_;
};

}  // namespace

TEST_F(GpuLiveLoop, AKernelOnlySaveReusesResidentInputsAndTheReference) {
    KernelSession& session = *session_;
    EXPECT_FALSE(session.last()->inputs_resident) << "the first run uploads its inputs";
    const int before = session.output_version();

    dir_.write("kernels/grayscale/seed.cu", text_ + "// an edit of the kernel only\n");
    ASSERT_TRUE(pump_until(session, [&] { return session.output_version() != before && !session.busy(); }));
    const RunReport& again = *session.last();
    ASSERT_TRUE(again.ok()) << again.error;
    EXPECT_TRUE(again.check.passed) << again.check.summary;
    EXPECT_TRUE(again.inputs_resident) << "the inputs were still on the GPU";
    EXPECT_TRUE(again.check.reference_cached) << "the reference was not run again";
    EXPECT_LT(again.h2d_ms, 1.0) << "nothing to upload";
}

// The seed's default picture (1280x800) comes to the window at most 1024 a side, computed on the GPU
// (progressive: with the checked result); looking closely brings the full resolution, which equals a
// whole view's arrays: the output as the kernel wrote it, every pixel within the task's +-1.
TEST_F(GpuLiveLoop, ADownsampledViewsFullResolutionComesFromTheGpuRun) {
    KernelSession& session = *session_;
    ASSERT_FALSE(session.last()->emulated);
    ASSERT_TRUE(session.shown());
    EXPECT_EQ(session.shown()->view.step, 2);
    EXPECT_EQ(session.shown()->view.width, 640);
    EXPECT_EQ(session.shown()->view.output.size(), size_t{640 * 400});
    const int version = session.output_version();
    session.look_closely();
    ASSERT_TRUE(pump_until(session, [&] { return session.output_version() != version; }));
    const OutputView& view = session.shown()->view;
    EXPECT_EQ(view.step, 1);
    ASSERT_EQ(view.output.size(), size_t{1280 * 800});
    ASSERT_EQ(view.map.size(), size_t{1280 * 800});
    size_t off = 0;
    for (float d : view.map) off += !(std::abs(d) <= 1.0f);  // NaN (never written) counts too
    EXPECT_EQ(off, 0u) << "the seed matches its reference everywhere";
    EXPECT_TRUE(session.full_view_problem().empty()) << session.full_view_problem();
}
