// The live loop through KernelSession and the real worker on the emulated device: a save that changes
// only the kernel (a comment, its body) finds the reference of its inputs in the worker's cache, though
// the save before it also checked a second seed; a save that changes the reference's code runs it again.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <thread>

#include "session/kernel_session.hpp"
#include "session_pump.hpp"
#include "test_support.hpp"

using namespace kplay;
using kplay::test::pump_until;
using namespace std::chrono_literals;

namespace {

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(LiveLoopSession, AKernelOnlySaveFindsItsReferenceInTheCache) {
    test::TempDir dir;
    const std::string text = read_text(test::kernels_dir() / "vector_add" / "01_naive.cu");
    const std::string header = read_text(test::kernels_dir() / "vector_add" / "reference.h");
    dir.write("kernels/vector_add/reference.h", header);
    const auto file = dir.write("kernels/vector_add/add.cu", text);
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.extra_environment = {"KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1", "XDG_CACHE_HOME=" + (dir.path() / "cache").string()};
    KernelSession session(options);
    session.inputs.device = kEmulatedDevice;
    session.open(file);
    ASSERT_TRUE(session.set_size_text("n=5000"));
    ASSERT_TRUE(pump_until(session, [&] { return session.last() && session.last()->sizes == "5000" && !session.busy(); }));
    ASSERT_TRUE(session.last()->ok()) << session.last()->error;
    ASSERT_FALSE(session.last()->check.sizes.empty()) << "the save also checked a second seed";

    auto save = [&](const std::string& path, const std::string& content) {
        const int version = session.output_version();
        dir.write(path, content);
        EXPECT_TRUE(pump_until(session, [&] { return session.output_version() != version && !session.busy(); })) << path;
        const RunReport& report = *session.last();
        EXPECT_TRUE(report.ok()) << report.error;
        EXPECT_TRUE(report.check.passed) << report.check.summary;
        return report.check.reference_cached;
    };
    EXPECT_TRUE(save("kernels/vector_add/add.cu", text + "// a comment\n")) << "the reference of n=5000 (seed 1) was still in the cache";
    std::string body = text;
    body.replace(body.find("c[i] = a[i] + b[i];"), 19, "c[i] = b[i] + a[i];");
    EXPECT_TRUE(save("kernels/vector_add/add.cu", body)) << "an edit of the kernel's body";
    std::string reference = header;
    reference.replace(reference.find("c[i] = a[i] + b[i];"), 19, "c[i] = b[i] + a[i];");
    EXPECT_FALSE(save("kernels/vector_add/reference.h", reference)) << "the reference's own code changed: it runs again";
}

// The seed's picture viewed at most 40 pixels a side comes downsampled; looking closely (a zoom past its pixels,
// a Save in the window) brings its full resolution from the worker, in its place on screen, once.
TEST(LiveLoopSession, LookingCloselyBringsTheFullResolutionOfADownsampledView) {
    test::TempDir dir;
    const auto file = dir.write("kernels/grayscale/k.cu", read_text(test::kernels_dir() / "grayscale" / "01_seed_1d.cu"));
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.extra_environment = {"KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1", "XDG_CACHE_HOME=" + (dir.path() / "cache").string()};
    KernelSession session(options);
    session.inputs.device = kEmulatedDevice;
    session.view_side = 40;
    session.open(file);
    ASSERT_TRUE(session.set_size_text("w=120,h=90"));
    ASSERT_TRUE(pump_until(session, [&] { return session.last() && session.last()->sizes == "120x90" && !session.busy(); }));
    ASSERT_TRUE(session.shown());
    EXPECT_EQ(session.shown()->view.step, 3);
    EXPECT_EQ(session.shown()->view.output.size(), size_t{40 * 30});
    const std::vector<unsigned char> input = session.shown()->view.input;
    ASSERT_EQ(input.size(), size_t{3 * 120 * 90});
    const int version = session.output_version();

    session.look_closely();
    EXPECT_TRUE(session.fetching_full_view());
    session.look_closely();  // asked once, however often the user zooms
    ASSERT_TRUE(pump_until(session, [&] { return session.output_version() != version; }));
    const OutputView& view = session.shown()->view;
    EXPECT_EQ(view.step, 1);
    EXPECT_EQ(view.width, 120);
    EXPECT_EQ(view.height, 90);
    EXPECT_EQ(view.output.size(), size_t{120 * 90});
    EXPECT_EQ(view.map.size(), size_t{120 * 90});
    EXPECT_EQ(view.input, input) << "the input on screen stays with it";
    EXPECT_FALSE(session.fetching_full_view());
    EXPECT_TRUE(session.full_view_problem().empty()) << session.full_view_problem();
    EXPECT_EQ(session.output_version(), version + 1);
    session.look_closely();  // whole now: nothing more is asked
    EXPECT_FALSE(session.fetching_full_view());
}
