// Who last wrote every element of one buffer, from a tracked emulated launch: the window's hover over
// an output element and its overlay of the launch's tiling (blocks coloured, unwritten and twice-written
// elements marked) read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_file/index_story.hpp"
#include "values/launch_config.hpp"
#include "values/who_wrote.hpp"

namespace kplay {

// A launch's linear thread number (block by block, each block's threads x fastest, as CUDA numbers them)
// as its block and thread indices: the emulated device's trackers number threads so.
void decode_thread(uint64_t id, const Dim3& grid, const Dim3& block, Dim3& block_idx, Dim3& thread_idx);

// One thread's built-ins, for an index story.
ThreadValues thread_values(const Dim3& block_idx, const Dim3& thread_idx, const Dim3& block, const Dim3& grid);

// One element's last write. Eight bytes, so that a buffer's cells travel as one blob.
struct WriterCell {
    static constexpr uint8_t kMany = 1, kAtomic = 2;
    uint32_t thread = 0;  // the writer's linear index in the launch + 1; 0: no thread wrote it
    uint16_t site = 0;    // index into WriterMap::sites
    uint8_t flags = 0;
    uint8_t unused = 0;
};
static_assert(sizeof(WriterCell) == 8);

// A line that wrote elements, with what its store says about the index.
struct WriterSite {
    std::string file;
    int line = 0;  // 0: not known (code without line information)
    IndexRecipe recipe;
};

struct WriterMap {
    std::string buffer;  // the buffer's name in the task
    std::string kernel;  // the launch the cells are of (a task's last launch that wrote the buffer)
    Dim3 grid, block;    // that launch's geometry: thread numbers decode through it
    std::vector<WriterCell> cells;  // one per element of the buffer
    std::vector<WriterSite> sites;

    bool empty() const { return cells.empty(); }
    // The element's writer, its line and its index story (as `--who-wrote` tells them); an element past
    // the end is reported as unwritten.
    ElementWriter writer(uint64_t element) const;
    // The block of the element's last writer as a linear number; -1 when no thread wrote it.
    int64_t block_number(uint64_t element) const;
    uint64_t threads_per_block() const { return static_cast<uint64_t>(block.volume()); }
};

}  // namespace kplay
