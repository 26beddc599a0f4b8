// Who wrote an output element on a tracked emulated launch, and how each buffer was covered by writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "values/launch_config.hpp"

namespace kplay {

// An element asked about (`kplay-cli run --who-wrote out[13]`), by buffer and linear index.
struct ElementRef {
    std::string buffer;
    uint64_t index = 0;
};

struct ElementWriter {
    ElementRef element;
    bool written = false;   // false: no thread of the launch wrote it
    Dim3 block, thread;     // the last writer
    bool many = false;      // more than one thread wrote it
    bool atomic = false;    // the last write was an atomic update
    std::string file;       // the line of the last write
    int line = 0;
    std::string index_story;  // how the index came about at that line, when the source says it plainly
};

// How a buffer's elements were written by the launch.
struct BufferWrites {
    std::string buffer;
    uint64_t elements = 0;
    uint64_t written = 0;  // by at least one thread
    uint64_t many = 0;     // by more than one thread (not counting atomic updates)
};

// "out[13]: written by thread (13,0,0) of block (7,0,0) at grayscale/01.cu:12; i = blockIdx.x*blockDim.x + threadIdx.x = 7*256 + 13"
std::string describe_writer(const ElementWriter& writer);

// "out[13]" or "out[13]" -> {out, 13}; an empty buffer name when the text is not of that form.
ElementRef parse_element_ref(const std::string& text);

}  // namespace kplay
