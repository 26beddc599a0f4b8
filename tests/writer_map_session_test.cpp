// "Who wrote each pixel" through KernelSession and the real worker on the emulated device: the shown
// result is mapped once asked, every save's result is mapped while it stays on, a kernel that leaves
// pixels unwritten shows them, a series is mapped along its index, and bars say why they have no map.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <thread>

#include "session/kernel_session.hpp"
#include "session_pump.hpp"
#include "test_support.hpp"

using namespace kplay;
using kplay::test::pump_until;
using namespace std::chrono_literals;

namespace {

WorkerOptions worker_options(const test::TempDir& cache) {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.extra_environment = {"KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1", "XDG_CACHE_HOME=" + cache.path().string()};
    return options;
}

std::string grayscale_kernel(const std::string& store) {
    return "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=128\n"
           "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" +
           store + "}\n";
}

}  // namespace

TEST(WriterMapSession, TheShownResultIsMappedAndEachSaveAgainWhileItIsOn) {
    test::TempDir dir;
    const auto file = dir.write("kernels/k.cu", grayscale_kernel("    if (i < n) out[i] = in[i];\n"));
    KernelSession session(worker_options(dir));
    session.inputs.device = kEmulatedDevice;
    session.open(file);
    ASSERT_TRUE(session.set_size_text("64x8"));
    ASSERT_TRUE(pump_until(session, [&] { return session.shown() && session.shown()->sizes == "64x8" && !session.busy(); }));
    EXPECT_EQ(session.writers_refusal(), "");
    EXPECT_EQ(session.writer_map(), nullptr) << "nothing is mapped before the user asks";

    session.show_writers(true);
    EXPECT_TRUE(session.mapping_writers());
    ASSERT_TRUE(pump_until(session, [&] { return session.writer_map() || !session.writers_problem().empty(); }));
    ASSERT_NE(session.writer_map(), nullptr) << session.writers_problem();
    const WriterMap& map = *session.writer_map();
    ASSERT_EQ(map.cells.size(), 512u);
    EXPECT_EQ(map.block.x, 128);
    const ElementWriter writer = map.writer(300);
    EXPECT_EQ(writer.block.x, 2);
    EXPECT_EQ(writer.thread.x, 44);
    EXPECT_EQ(writer.line, 4);
    EXPECT_NE(writer.index_story.find("= 2 * 128 + 44"), std::string::npos) << writer.index_story;

    // A save that writes only the first half: its result is mapped too, the unwritten half marked.
    const int version = session.output_version();
    dir.write("kernels/k.cu", grayscale_kernel("    if (i < n / 2) out[i] = in[i];\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.output_version() != version && session.writer_map(); }))
        << session.writers_problem();
    const WriterMap& half = *session.writer_map();
    ASSERT_EQ(half.cells.size(), 512u);
    EXPECT_EQ(half.cells[255].thread, 256u);
    EXPECT_EQ(half.cells[256].thread, 0u);
    EXPECT_FALSE(half.writer(400).written);

    // Off: the next result is not mapped.
    session.show_writers(false);
    const int before = session.output_version();
    dir.write("kernels/k.cu", grayscale_kernel("    if (i < n) out[i] = in[i] / 2;\n"));
    ASSERT_TRUE(pump_until(session, [&] { return session.output_version() != before && !session.busy(); }));
    std::this_thread::sleep_for(200ms);
    session.update();
    EXPECT_FALSE(session.mapping_writers());
    EXPECT_EQ(session.writer_map(), nullptr);
}

TEST(WriterMapSession, ASeriesIsMappedAlongItsIndexAndBarsSayWhyNot) {
    test::TempDir dir;
    KernelSession session(worker_options(dir));
    session.inputs.device = kEmulatedDevice;
    session.open(test::kernels_dir() / "vector_add/01_naive.cu");
    ASSERT_TRUE(session.set_size_text("n=1000"));
    ASSERT_TRUE(pump_until(session, [&] { return session.shown() && !session.busy(); }));
    EXPECT_EQ(session.writers_refusal(), "");
    session.show_writers(true);
    ASSERT_TRUE(pump_until(session, [&] { return session.writer_map() || !session.writers_problem().empty(); }));
    ASSERT_NE(session.writer_map(), nullptr) << session.writers_problem();
    const WriterMap& map = *session.writer_map();
    EXPECT_EQ(map.buffer, "c");
    EXPECT_EQ(map.cells.size(), 1000u);
    const ElementWriter w = map.writer(700);  // block 2 of 256 threads, thread 188
    EXPECT_TRUE(w.written);
    EXPECT_EQ(w.block.x, 2);
    EXPECT_EQ(w.thread.x, 188);

    session.show_writers(false);
    session.open(test::kernels_dir() / "histogram/01_global_atomics.cu");
    ASSERT_TRUE(session.set_size_text("64x32"));
    ASSERT_TRUE(pump_until(session, [&] { return session.shown() && !session.busy() && session.shown()->view.kind == OutputKind::bars; }));
    EXPECT_NE(session.writers_refusal().find("drawn as bars"), std::string::npos) << session.writers_refusal();
    session.show_writers(true);
    EXPECT_FALSE(session.mapping_writers());
    EXPECT_EQ(session.writers_problem(), session.writers_refusal());
}
