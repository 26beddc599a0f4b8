// The writer map of a tracked emulated run (RunRequest::writer_map): every element of the named buffer
// carries its last writer, the line that wrote it and that line's index recipe; elements never written
// and written by two threads are marked. The window's hover and tiling overlay read it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

RunRequest mapped_request(const fs::path& file, const std::string& size, const std::string& buffer) {
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = size;
    request.emulate = true;
    request.emulation_timeout_s = 60;
    request.check_test_sizes = false;
    request.writer_map = buffer;
    return request;
}

// A kernel of the grayscale task written into a scratch folder, with `body` after the index line.
fs::path grayscale_kernel(const test::TempDir& dir, const std::string& name, const std::string& body) {
    const fs::path file = dir.path() / (name + ".cu");
    std::ofstream(file) << "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=64\n"
                        << "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
                        << "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        << body << "}\n";
    return file;
}

TEST(WriterMap, TheSeedKernelWritesEveryPixelOnceAndEachCellNamesItsThread) {
    const RunReport report = test::scratch_engine().run(mapped_request(test::kernels_dir() / "grayscale/01_seed_1d.cu", "128x8", "out"));
    ASSERT_TRUE(report.ok()) << report.error;
    const WriterMap& map = report.writer_map;
    ASSERT_EQ(map.cells.size(), 1024u);  // one per pixel of the 128x8 gray output
    EXPECT_EQ(map.buffer, "out");
    EXPECT_EQ(map.kernel, report.kernel);
    EXPECT_EQ(map.block.x, 256);
    EXPECT_EQ(map.grid.x, 4);
    for (uint64_t i = 0; i < map.cells.size(); ++i) {
        ASSERT_EQ(map.cells[i].thread, i + 1) << "element " << i;  // out[i] is written by thread i, and only by it
        ASSERT_EQ(map.cells[i].flags, 0) << "element " << i;
        ASSERT_EQ(map.block_number(i), static_cast<int64_t>(i / 256));
    }
    const ElementWriter writer = map.writer(700);
    EXPECT_TRUE(writer.written);
    EXPECT_EQ(writer.block.x, 2);
    EXPECT_EQ(writer.thread.x, 188);
    EXPECT_EQ(writer.line, 13);
    EXPECT_NE(writer.file.find("grayscale/01_seed_1d.cu"), std::string::npos) << writer.file;
    EXPECT_NE(writer.index_story.find("= 2*256 + 188"), std::string::npos) << writer.index_story;
    EXPECT_FALSE(map.writer(1024).written);  // past the end
    EXPECT_EQ(map.block_number(5000), -1);
}

TEST(WriterMap, UnwrittenAndTwiceWrittenElementsAreMarked) {
    test::TempDir dir;
    // Thread i writes out[i/2]: the first half is written twice, the second half never.
    const fs::path file = grayscale_kernel(dir, "halves", "    if (i < n) out[i / 2] = in[i];\n");
    const RunReport report = test::scratch_engine().run(mapped_request(file, "64x4", "out"));
    ASSERT_TRUE(report.ok()) << report.error;  // ran to the end, with a failed check
    EXPECT_FALSE(report.check.passed);
    const WriterMap& map = report.writer_map;
    ASSERT_EQ(map.cells.size(), 256u);
    for (uint64_t i = 0; i < 128; ++i) {
        EXPECT_TRUE(map.cells[i].flags & WriterCell::kMany) << i;
        EXPECT_TRUE(map.writer(i).many);
        EXPECT_EQ(map.writer(i).line, 4);
    }
    for (uint64_t i = 128; i < 256; ++i) {
        EXPECT_EQ(map.cells[i].thread, 0u) << i;
        EXPECT_FALSE(map.writer(i).written);
        EXPECT_EQ(map.block_number(i), -1);
    }
}

TEST(WriterMap, AGridStrideLoopAndFloat4StoresAreMappedPerElement) {
    // vector_add's grid-stride step stores float4s: each of the four floats of a store has its writer.
    RunRequest request = mapped_request(test::kernels_dir() / "vector_add/03_grid_stride.cu", "n=4099", "c");
    const RunReport report = test::scratch_engine().run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    ASSERT_TRUE(report.check.passed) << report.check.summary;
    const WriterMap& map = report.writer_map;
    ASSERT_EQ(map.cells.size(), 4099u);
    const uint64_t threads = static_cast<uint64_t>(map.grid.volume() * map.block.volume());
    ASSERT_GT(threads, 0u);
    for (uint64_t i = 0; i < 4096; ++i) {  // the float4 part: element i is in float4 i/4, done by thread (i/4) mod T
        ASSERT_EQ(map.cells[i].thread, (i / 4) % threads + 1) << "element " << i;
        ASSERT_EQ(map.cells[i].flags, 0) << "element " << i;
    }
    for (uint64_t i = 4096; i < 4099; ++i) EXPECT_EQ(map.cells[i].thread, (i - 4096) + 1) << "tail element " << i;
    EXPECT_NE(map.writer(0).line, map.writer(4096).line);  // the loop's store and the tail's
}

TEST(WriterMap, NoBufferNamedNoMapAndAnUnknownNameMapsNothing) {
    RunRequest request = mapped_request(test::kernels_dir() / "grayscale/01_seed_1d.cu", "64x4", "");
    EXPECT_TRUE(test::scratch_engine().run(request).writer_map.empty());
    request.writer_map = "no_such_buffer";
    const RunReport report = test::scratch_engine().run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.writer_map.empty());
    ASSERT_FALSE(report.warnings.empty());
    EXPECT_NE(report.warnings.front().find("no buffer named 'no_such_buffer'"), std::string::npos) << report.warnings.front();
    EXPECT_NE(report.warnings.front().find("in, out"), std::string::npos) << report.warnings.front();
}

// Asking who wrote an element no buffer holds is refused before the launch, with the buffers there are
// or the indices the buffer has; the same question of a real element is answered.
TEST(WhoWrote, AMisspelledBufferOrAnIndexPastTheEndIsRefusedWithTheChoices) {
    RunRequest request = mapped_request(test::kernels_dir() / "grayscale/01_seed_1d.cu", "128x8", "");
    request.who_wrote = {{"outt", 5}};
    RunReport report = test::scratch_engine().run(request);
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.error, "who wrote 'outt[5]': the task has no buffer named 'outt' (its buffers: in, out)");
    request.who_wrote = {{"out", 99999999}};
    report = test::scratch_engine().run(request);
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.error, "who wrote 'out[99999999]': 'out' has 1024 elements at this size, out[0] to out[1023]");
    request.who_wrote = {{"out", 1023}};
    report = test::scratch_engine().run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    ASSERT_EQ(report.writers.size(), 1u);
    EXPECT_TRUE(report.writers[0].written);
    EXPECT_EQ(report.writers[0].thread.x, 255);
}

}  // namespace
}  // namespace kplay
