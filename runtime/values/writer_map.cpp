// Decoding a writer map's cells: a thread's linear number into block and thread, and its index story.
#include "values/writer_map.hpp"

namespace kplay {

void decode_thread(uint64_t id, const Dim3& grid, const Dim3& block, Dim3& block_idx, Dim3& thread_idx) {
    const uint64_t per_block = static_cast<uint64_t>(block.volume());
    const uint64_t b = id / per_block, t = id % per_block;
    const auto gx = static_cast<uint64_t>(grid.x), gy = static_cast<uint64_t>(grid.y);
    const auto bx = static_cast<uint64_t>(block.x), by = static_cast<uint64_t>(block.y);
    block_idx = {static_cast<int64_t>(b % gx), static_cast<int64_t>((b / gx) % gy), static_cast<int64_t>(b / (gx * gy))};
    thread_idx = {static_cast<int64_t>(t % bx), static_cast<int64_t>((t / bx) % by), static_cast<int64_t>(t / (bx * by))};
}

ThreadValues thread_values(const Dim3& block_idx, const Dim3& thread_idx, const Dim3& block, const Dim3& grid) {
    ThreadValues values;
    const Dim3* dims[] = {&block_idx, &thread_idx, &block, &grid};
    unsigned* into[] = {values.block_idx, values.thread_idx, values.block_dim, values.grid_dim};
    for (int d = 0; d < 4; ++d) {
        into[d][0] = static_cast<unsigned>(dims[d]->x);
        into[d][1] = static_cast<unsigned>(dims[d]->y);
        into[d][2] = static_cast<unsigned>(dims[d]->z);
    }
    return values;
}

ElementWriter WriterMap::writer(uint64_t element) const {
    ElementWriter writer;
    writer.element = {buffer, element};
    if (element >= cells.size() || cells[element].thread == 0 || block.volume() <= 0 || grid.volume() <= 0) return writer;
    const WriterCell& cell = cells[element];
    writer.written = true;
    writer.many = cell.flags & WriterCell::kMany;
    writer.atomic = cell.flags & WriterCell::kAtomic;
    decode_thread(cell.thread - 1, grid, block, writer.block, writer.thread);
    if (cell.site < sites.size()) {
        const WriterSite& site = sites[cell.site];
        writer.file = site.file;
        writer.line = site.line;
        writer.index_story = tell_index(site.recipe, thread_values(writer.block, writer.thread, block, grid));
    }
    return writer;
}

int64_t WriterMap::block_number(uint64_t element) const {
    if (element >= cells.size() || cells[element].thread == 0 || block.volume() <= 0) return -1;
    return static_cast<int64_t>((cells[element].thread - 1) / threads_per_block());
}

}  // namespace kplay
