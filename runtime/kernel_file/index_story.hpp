// How an element's index came about, told from the kernel's own text: the store at a line, its
// subscript, the definition of the index variable, and the CUDA built-ins filled in with one thread's
// values ("i = blockIdx.x * blockDim.x + threadIdx.x = 7 * 256 + 13").
#pragma once

#include <string>

namespace kplay {

struct ThreadValues {
    unsigned block_idx[3] = {0, 0, 0}, thread_idx[3] = {0, 0, 0}, block_dim[3] = {1, 1, 1}, grid_dim[3] = {1, 1, 1};
};

// Empty when the line has no plain `name[index] = ...` store or its index involves no built-in.
std::string index_story(const std::string& source, int line, const ThreadValues& values);

}  // namespace kplay
