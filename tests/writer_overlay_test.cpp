// The writer overlay's model: which elements a view pixel covers (an image's channels, a matrix's pooled
// cells), the colours of blocks, edges, unwritten and twice-written elements, and the hover line.
#include "writer_overlay.hpp"

#include <gtest/gtest.h>

using namespace kplay;
using namespace kplay::window;

namespace {

// A 1D launch of `blocks` blocks of `threads` threads where thread t wrote element t.
WriterMap one_writer_each(uint64_t elements, int64_t threads) {
    WriterMap map;
    map.buffer = "out";
    map.kernel = "k";
    map.block = {threads, 1, 1};
    map.grid = {static_cast<int64_t>((elements + threads - 1) / threads), 1, 1};
    map.sites = {{"grayscale/x.cu", 7, {"i", "blockIdx.x * blockDim.x + threadIdx.x"}}};
    for (uint64_t i = 0; i < elements; ++i) map.cells.push_back({static_cast<uint32_t>(i + 1), 0, 0, 0});
    return map;
}

OutputView image(int w, int h, int channels) {
    OutputView view;
    view.kind = OutputKind::image;
    view.buffer = "out";
    view.width = w;
    view.height = h;
    view.channels = channels;
    return view;
}

const unsigned char* pixel(const std::vector<unsigned char>& rgba, int w, int x, int y) { return &rgba[(static_cast<size_t>(y) * w + x) * 4]; }

}  // namespace

TEST(WriterOverlay, AnImagePixelIsItsFirstChannelsElement) {
    const ViewElements gray = view_elements(image(10, 4, 1));
    EXPECT_EQ(element_at(gray, 3, 2), 23u);
    const ViewElements rgb = view_elements(image(10, 4, 3));
    EXPECT_EQ(element_at(rgb, 3, 2), 69u);  // (2*10 + 3) * 3
}

// A downsampled view's pixel (OutputView::step) is its block of image pixels: the block's top-left
// pixel names it, and what its writers say is of every pixel and channel in it.
TEST(WriterOverlay, ADownsampledImagesPixelIsItsBlock) {
    OutputView view = image(5, 2, 3);
    view.cols = 10;
    view.rows = 4;
    view.step = 2;
    const ViewElements layout = view_elements(view);
    EXPECT_EQ(layout.pixel_step, 2);
    EXPECT_EQ(element_at(layout, 2, 1), (2u * 10 + 4) * 3);  // image pixel (4, 2)
    WriterMap map = one_writer_each(120, 16);
    map.cells[(3 * 10 + 5) * 3 + 2].thread = 0;  // pixel (5, 3), blue: never written
    EXPECT_TRUE(pixel_writers(map, layout, 2, 1).unwritten);
    EXPECT_FALSE(pixel_writers(map, layout, 1, 1).unwritten);
}

TEST(WriterOverlay, AMatrixCellIsThePooledBlocksTopLeftElement) {
    OutputView view;
    view.kind = OutputKind::matrix;
    view.rows = 3000;
    view.cols = 2000;
    view.width = 1000;   // 2000 columns pooled by 2
    view.height = 1000;  // 3000 rows pooled by 3
    const ViewElements layout = view_elements(view);
    EXPECT_EQ(layout.row_step, 3);
    EXPECT_EQ(layout.col_step, 2);
    EXPECT_EQ(element_at(layout, 5, 7), 7u * 3 * 2000 + 5 * 2);
}

TEST(WriterOverlay, TheHoverLineNamesTheThreadBlockLineAndIndex) {
    const WriterMap map = one_writer_each(40, 16);
    const ViewElements layout = view_elements(image(10, 4, 1));
    const std::string line = writer_line(map, layout, 3, 2);  // element 23: thread 7 of block 1
    EXPECT_NE(line.find("out[23]: written by thread (7,0,0) of block (1,0,0) at grayscale/x.cu:7"), std::string::npos) << line;
    EXPECT_NE(line.find("= 1 * 16 + 7"), std::string::npos) << line;
    EXPECT_EQ(writer_line(map, layout, 10, 0), "");  // outside the view
}

TEST(WriterOverlay, BlocksHaveTheirOwnColoursAndEdgesLieBetweenThem) {
    const WriterMap map = one_writer_each(40, 16);  // blocks 0, 1 and half of 2, 10 pixels a row
    const ViewElements layout = view_elements(image(10, 4, 1));
    const std::vector<unsigned char> blocks = overlay_pixels(map, layout, TilingOverlay::blocks);
    ASSERT_EQ(blocks.size(), 10u * 4 * 4);
    EXPECT_TRUE(std::equal(pixel(blocks, 10, 0, 0), pixel(blocks, 10, 0, 0) + 4, pixel(blocks, 10, 5, 1)));  // elements 0 and 15: block 0
    EXPECT_FALSE(std::equal(pixel(blocks, 10, 0, 0), pixel(blocks, 10, 0, 0) + 3, pixel(blocks, 10, 6, 1)));  // 15 and 16: blocks 0 and 1
    EXPECT_GT(pixel(blocks, 10, 0, 0)[3], 0);

    const std::vector<unsigned char> edges = overlay_pixels(map, layout, TilingOverlay::edges);
    EXPECT_EQ(pixel(edges, 10, 5, 1)[3], 0);    // inside block 0
    EXPECT_GT(pixel(edges, 10, 6, 1)[3], 200);  // element 16 starts block 1: an edge on its left
    EXPECT_EQ(pixel(edges, 10, 6, 2)[3], 0);    // element 26: its left (25) and above (16) are block 1 too
    EXPECT_GT(pixel(edges, 10, 2, 3)[3], 200);  // element 32 starts block 2: its left (31) and above (22) are block 1
    EXPECT_TRUE(overlay_pixels(map, layout, TilingOverlay::off).empty());
}

TEST(WriterOverlay, UnwrittenAndTwiceWrittenElementsAreMarkedInEveryMode) {
    WriterMap map = one_writer_each(40, 16);
    map.cells[12] = {};                       // never written
    map.cells[30].flags = WriterCell::kMany;  // written by two threads
    const ViewElements layout = view_elements(image(10, 4, 1));
    for (TilingOverlay mode : {TilingOverlay::blocks, TilingOverlay::edges}) {
        const std::vector<unsigned char> rgba = overlay_pixels(map, layout, mode);
        const unsigned char* unwritten = pixel(rgba, 10, 2, 1);
        EXPECT_GT(unwritten[0], 200);
        EXPECT_LT(unwritten[1], 80);
        EXPECT_GT(unwritten[2], 200);  // magenta
        const unsigned char* many = pixel(rgba, 10, 0, 3);
        EXPECT_GT(many[0], 200);
        EXPECT_LT(many[1], 80);
        EXPECT_LT(many[2], 80);  // red
    }
    const OverlayCounts counts = overlay_counts(map);
    EXPECT_EQ(counts.unwritten, 1u);
    EXPECT_EQ(counts.many, 1u);
    EXPECT_EQ(counts.blocks, 3u);
}

TEST(WriterOverlay, APooledCellIsMarkedWhenAnyOfItsElementsIs) {
    OutputView view;
    view.kind = OutputKind::matrix;
    view.rows = 4;
    view.cols = 4;
    view.width = 2;
    view.height = 2;
    WriterMap map = one_writer_each(16, 4);
    map.cells[15] = {};  // the bottom-right cell's last element
    const ViewElements layout = view_elements(view);
    EXPECT_FALSE(pixel_writers(map, layout, 0, 0).unwritten);
    EXPECT_TRUE(pixel_writers(map, layout, 1, 1).unwritten);
    EXPECT_EQ(pixel_writers(map, layout, 1, 1).block, 2);  // its first element, 10, is thread 2 of block 2
}

TEST(WriterOverlay, ADoubleClickedElementsWriterIsTheDebugTabsStop) {
    WriterMap map = one_writer_each(40, 16);
    DebugTarget target;
    ASSERT_TRUE(debug_target(map.writer(23), target));
    EXPECT_EQ(target.block, (std::array<int, 3>{1, 0, 0}));
    EXPECT_EQ(target.thread, (std::array<int, 3>{7, 0, 0}));
    EXPECT_EQ(target.line, 7);
    map.cells[5] = {};
    EXPECT_FALSE(debug_target(map.writer(5), target)) << "no thread wrote it";
    map.sites[0].line = 0;
    EXPECT_FALSE(debug_target(map.writer(6), target)) << "a line not known is no place to stop";
}

// The series view: a pixel column stands for a run of elements; whatever one of them says (never
// written, written twice) its column says, whether it lies in a whole chunk or at the run's ends.
TEST(WriterOverlay, ASeriesColumnIsMarkedWhenAnyOfItsElementsIs) {
    WriterMap map = one_writer_each(100000, 256);
    map.cells[3] = {};                                // the first chunk's partial head
    map.cells[50000].flags = WriterCell::kMany;       // inside a whole chunk of a column's middle
    map.cells[99999] = {};                            // the very last element
    const WriterChunks chunks = writer_chunks(map);
    ASSERT_EQ(chunks.flags.size(), (100000 + 255) / 256u);
    const std::vector<PixelWriters> columns = column_writers(map, chunks, 0, 100000, 100);  // 1000 elements each
    ASSERT_EQ(columns.size(), 100u);
    EXPECT_TRUE(columns[0].unwritten);
    EXPECT_TRUE(columns[50].many) << "element 50000 starts column 50";
    EXPECT_FALSE(columns[49].many);
    EXPECT_TRUE(columns[99].unwritten);
    int marked = 0;
    for (const PixelWriters& c : columns) marked += c.unwritten || c.many;
    EXPECT_EQ(marked, 3);
    EXPECT_EQ(columns[1].block, 3) << "column 1 starts at element 1000, thread 232 of block 3";
    // Deep in a whole chunk, found by the chunk's flags alone: elements 40000..60000 in one column.
    EXPECT_TRUE(range_writers(map, chunks, 40000, 60000).many);
    EXPECT_FALSE(range_writers(map, chunks, 40000, 49999).many);
}

// Zoomed in, a column is less than an element wide: it names the element under it.
TEST(WriterOverlay, AZoomedInSeriesColumnIsTheElementUnderIt) {
    WriterMap map = one_writer_each(64, 16);
    map.cells[20] = {};
    const std::vector<PixelWriters> columns = column_writers(map, writer_chunks(map), 16, 24, 80);  // 10 columns an element
    ASSERT_EQ(columns.size(), 80u);
    EXPECT_EQ(columns[0].block, 1);
    EXPECT_FALSE(columns[39].unwritten) << "column 39 lies over element 19";
    EXPECT_TRUE(columns[40].unwritten) << "columns 40-49 lie over element 20";
    EXPECT_TRUE(columns[49].unwritten);
    EXPECT_FALSE(columns[50].unwritten);
    EXPECT_TRUE(range_writers(map, writer_chunks(map), 200, 300).block == -1) << "past the end: nobody";
}
