// The writer map drawn over an output view: which pixel of the view is which element of the buffer, the
// overlay's colours (each block its own colour, or only the edges between blocks; never-written elements
// magenta and elements two threads wrote red in every mode) and the hover line naming the writer. Free of
// GUI code, so it is tested on its own.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "values/output_view.hpp"
#include "values/writer_map.hpp"

namespace kplay::window {

enum class TilingOverlay { off = 0, blocks = 1, edges = 2 };

// How the view's pixels lie over the buffer's elements: an image's pixel holds `channels` elements; a
// matrix's map pools row_step x col_step elements into one cell.
struct ViewElements {
    int width = 0, height = 0;  // the view's pixels
    int64_t row_elements = 0;   // elements in one row of the buffer
    int64_t row_step = 1, col_step = 1;
    int64_t rows = 0;  // rows of the buffer
    int pixel_step = 1;  // an image's pixels per view pixel along a side (a downsampled view's step)
    bool valid() const { return width > 0 && height > 0 && row_elements > 0; }
};
ViewElements view_elements(const OutputView& view);

// The first element under view pixel (x, y): an image pixel's first channel, a pooled cell's top-left.
uint64_t element_at(const ViewElements& layout, int x, int y);

// What the elements under one view pixel say, all of them considered.
struct PixelWriters {
    int64_t block = -1;  // the block of the first element's writer; -1: unwritten
    bool unwritten = false, many = false;
};
PixelWriters pixel_writers(const WriterMap& map, const ViewElements& layout, int x, int y);

// A series view's pixel column covers many elements: whether any of them was never written or written
// twice is looked up per chunk of kChunk elements, so a frame's work stays bounded at any length.
struct WriterChunks {
    static constexpr uint64_t kChunk = 256;
    static constexpr unsigned char kAnyUnwritten = 1, kAnyMany = 2;
    std::vector<unsigned char> flags;  // per chunk
};
WriterChunks writer_chunks(const WriterMap& map);

// What the elements [begin, end) say, all of them considered (an empty range: the element at begin).
PixelWriters range_writers(const WriterMap& map, const WriterChunks& chunks, uint64_t begin, uint64_t end);

// The series view's `columns` pixel columns over the elements [first, last): each column's writers.
std::vector<PixelWriters> column_writers(const WriterMap& map, const WriterChunks& chunks, double first, double last, int columns);

// The overlay as RGBA rows, top row first (layout.width x layout.height pixels), for `mode`.
std::vector<unsigned char> overlay_pixels(const WriterMap& map, const ViewElements& layout, TilingOverlay mode);

// The counts the legend states.
struct OverlayCounts {
    uint64_t unwritten = 0, many = 0, blocks = 0;
};
OverlayCounts overlay_counts(const WriterMap& map);

// A block's colour in the overlays (neighbouring blocks far apart in hue); alpha lets the output show.
void block_colour(int64_t block, unsigned char* rgba);
// The marks every mode shares, RGBA.
extern const unsigned char kUnwrittenColour[4], kManyColour[4], kEdgeColour[4];

// "out[700]: written by thread (188,0,0) of block (2,0,0) at grayscale/01_seed_1d.cu:13; i = ..." for
// view pixel (x, y); empty outside the view.
std::string writer_line(const WriterMap& map, const ViewElements& layout, int x, int y);

// The Debug tab's stop for an element's writer (double-click on an output pixel): its block, thread and
// line; false when no thread wrote the element or its line is not known.
struct DebugTarget {
    std::array<int, 3> block{0, 0, 0}, thread{0, 0, 0};
    int line = 0;
};
bool debug_target(const ElementWriter& writer, DebugTarget& target);

}  // namespace kplay::window
