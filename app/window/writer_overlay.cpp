// The writer overlay's layout, colours and words.
#include "writer_overlay.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace kplay::window {

const unsigned char kUnwrittenColour[4] = {230, 40, 230, 220};  // magenta, as the difference view marks them
const unsigned char kManyColour[4] = {240, 50, 40, 230};         // red: two threads wrote it
const unsigned char kEdgeColour[4] = {255, 255, 255, 210};

// Neighbouring block numbers get far-apart hues (the golden ratio's steps around the colour wheel).
void block_colour(int64_t block, unsigned char* rgba) {
    const double hue = std::fmod(static_cast<double>(block) * 0.6180339887498949, 1.0) * 6.0;
    const double f = hue - std::floor(hue);
    const double v = 0.95, s = 0.75, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r = v, g = t, b = p;
    switch (static_cast<int>(hue)) {
        case 1: r = q, g = v, b = p; break;
        case 2: r = p, g = v, b = t; break;
        case 3: r = p, g = q, b = v; break;
        case 4: r = t, g = p, b = v; break;
        case 5: r = v, g = p, b = q; break;
        default: break;
    }
    rgba[0] = static_cast<unsigned char>(255 * r);
    rgba[1] = static_cast<unsigned char>(255 * g);
    rgba[2] = static_cast<unsigned char>(255 * b);
    rgba[3] = 115;  // the output shows through
}

ViewElements view_elements(const OutputView& view) {
    ViewElements layout;
    layout.width = view.width;
    layout.height = view.height;
    if (view.kind == OutputKind::image) {
        // A downsampled view's pixel is its block of step x step image pixels, each of `channels` elements.
        const int step = std::max(1, view.step);
        layout.row_elements = (view.cols > 0 ? view.cols : view.width) * std::max(1, view.channels);
        layout.col_step = static_cast<int64_t>(step) * std::max(1, view.channels);
        layout.row_step = step;
        layout.rows = view.rows > 0 ? view.rows : view.height;
        layout.pixel_step = step;
    } else if (view.kind == OutputKind::matrix && view.width > 0 && view.height > 0) {
        // The pooling fill_matrix_view did: ceil(rows / height) rows and ceil(cols / width) columns per cell.
        layout.row_elements = view.cols;
        layout.rows = view.rows;
        layout.row_step = std::max<int64_t>(1, (view.rows + view.height - 1) / view.height);
        layout.col_step = std::max<int64_t>(1, (view.cols + view.width - 1) / view.width);
    }
    return layout;
}

uint64_t element_at(const ViewElements& layout, int x, int y) {
    return static_cast<uint64_t>(static_cast<int64_t>(y) * layout.row_step * layout.row_elements + static_cast<int64_t>(x) * layout.col_step);
}

PixelWriters pixel_writers(const WriterMap& map, const ViewElements& layout, int x, int y) {
    PixelWriters pixel;
    pixel.block = map.block_number(element_at(layout, x, y));
    const int64_t row0 = static_cast<int64_t>(y) * layout.row_step, col0 = static_cast<int64_t>(x) * layout.col_step;
    for (int64_t r = row0; r < std::min(row0 + layout.row_step, layout.rows); ++r)
        for (int64_t c = col0; c < std::min(col0 + layout.col_step, layout.row_elements); ++c) {
            const uint64_t element = static_cast<uint64_t>(r * layout.row_elements + c);
            if (element >= map.cells.size()) continue;
            const WriterCell& cell = map.cells[element];
            if (cell.thread == 0) pixel.unwritten = true;
            else if (cell.flags & WriterCell::kMany) pixel.many = true;
        }
    return pixel;
}

WriterChunks writer_chunks(const WriterMap& map) {
    WriterChunks chunks;
    chunks.flags.assign((map.cells.size() + WriterChunks::kChunk - 1) / WriterChunks::kChunk, 0);
    for (uint64_t i = 0; i < map.cells.size(); ++i) {
        const WriterCell& cell = map.cells[i];
        if (cell.thread == 0) chunks.flags[i / WriterChunks::kChunk] |= WriterChunks::kAnyUnwritten;
        else if (cell.flags & WriterCell::kMany) chunks.flags[i / WriterChunks::kChunk] |= WriterChunks::kAnyMany;
    }
    return chunks;
}

PixelWriters range_writers(const WriterMap& map, const WriterChunks& chunks, uint64_t begin, uint64_t end) {
    PixelWriters range;
    const uint64_t size = map.cells.size();
    if (begin >= size) return range;
    end = std::min(std::max(end, begin + 1), size);
    range.block = map.block_number(begin);
    auto look = [&](uint64_t i) {
        const WriterCell& cell = map.cells[i];
        if (cell.thread == 0) range.unwritten = true;
        else if (cell.flags & WriterCell::kMany) range.many = true;
    };
    constexpr uint64_t n = WriterChunks::kChunk;
    uint64_t i = begin;
    for (; i < end && i % n != 0; ++i) look(i);              // up to the first whole chunk
    for (; i + n <= end; i += n) {                           // whole chunks by their flags
        const unsigned char flags = i / n < chunks.flags.size() ? chunks.flags[i / n] : 0;
        range.unwritten |= (flags & WriterChunks::kAnyUnwritten) != 0;
        range.many |= (flags & WriterChunks::kAnyMany) != 0;
    }
    for (; i < end; ++i) look(i);                            // the tail
    return range;
}

std::vector<PixelWriters> column_writers(const WriterMap& map, const WriterChunks& chunks, double first, double last, int columns) {
    std::vector<PixelWriters> out;
    if (columns <= 0 || last <= first) return out;
    out.reserve(static_cast<size_t>(columns));
    const double per = (last - first) / columns;
    for (int k = 0; k < columns; ++k) {
        const double a = std::max(0.0, first + k * per), b = std::max(0.0, first + (k + 1) * per);
        out.push_back(range_writers(map, chunks, static_cast<uint64_t>(a), static_cast<uint64_t>(std::ceil(b))));
    }
    return out;
}

std::vector<unsigned char> overlay_pixels(const WriterMap& map, const ViewElements& layout, TilingOverlay mode) {
    if (!layout.valid() || mode == TilingOverlay::off) return {};
    const size_t w = static_cast<size_t>(layout.width), h = static_cast<size_t>(layout.height);
    std::vector<unsigned char> rgba(w * h * 4, 0);
    std::vector<int64_t> above(w, -2), here(w, -2);  // the block of each pixel in the row above and this one
    for (size_t y = 0; y < h; ++y) {
        for (size_t x = 0; x < w; ++x) {
            const PixelWriters pixel = pixel_writers(map, layout, static_cast<int>(x), static_cast<int>(y));
            here[x] = pixel.block;
            unsigned char* out = &rgba[(y * w + x) * 4];
            const unsigned char* colour = nullptr;
            unsigned char block_rgba[4];
            if (pixel.unwritten) colour = kUnwrittenColour;
            else if (pixel.many) colour = kManyColour;
            else if (mode == TilingOverlay::blocks) block_colour(pixel.block, block_rgba), colour = block_rgba;
            else if ((x > 0 && here[x - 1] != pixel.block) || (y > 0 && above[x] != pixel.block)) colour = kEdgeColour;
            if (colour) std::copy(colour, colour + 4, out);
        }
        std::swap(above, here);
    }
    return rgba;
}

OverlayCounts overlay_counts(const WriterMap& map) {
    OverlayCounts counts;
    std::unordered_set<int64_t> blocks;
    for (uint64_t i = 0; i < map.cells.size(); ++i) {
        const WriterCell& cell = map.cells[i];
        if (cell.thread == 0) {
            ++counts.unwritten;
            continue;
        }
        if (cell.flags & WriterCell::kMany) ++counts.many;
        blocks.insert(map.block_number(i));
    }
    counts.blocks = blocks.size();
    return counts;
}

std::string writer_line(const WriterMap& map, const ViewElements& layout, int x, int y) {
    if (!layout.valid() || x < 0 || y < 0 || x >= layout.width || y >= layout.height) return {};
    return describe_writer(map.writer(element_at(layout, x, y)));
}

bool debug_target(const ElementWriter& writer, DebugTarget& target) {
    if (!writer.written || writer.line <= 0) return false;
    target.block = {static_cast<int>(writer.block.x), static_cast<int>(writer.block.y), static_cast<int>(writer.block.z)};
    target.thread = {static_cast<int>(writer.thread.x), static_cast<int>(writer.thread.y), static_cast<int>(writer.thread.z)};
    target.line = writer.line;
    return true;
}

}  // namespace kplay::window
