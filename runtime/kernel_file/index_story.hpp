// How an element's index came about, told from the kernel's own text: the store at a line, its
// subscript, the definition of the index variable, and the CUDA built-ins filled in with one thread's
// values ("i = blockIdx.x * blockDim.x + threadIdx.x = 7 * 256 + 13").
#pragma once

#include <string>
#include <vector>

namespace kplay {

struct ThreadValues {
    unsigned block_idx[3] = {0, 0, 0}, thread_idx[3] = {0, 0, 0}, block_dim[3] = {1, 1, 1}, grid_dim[3] = {1, 1, 1};
};

// What a line's store says about its index, found once per line: `name = expression` for an index
// variable defined above it (name empty: the subscript itself is the expression). Empty expression: the
// line has no plain `name[index] = ...` store, or its index involves no built-in.
struct IndexPart {
    std::string name;
    std::string expression;
    std::string resolved;  // the expression with its own variables from built-ins put in (tr -> (threadIdx.y)); empty: none
};
struct IndexRecipe {
    std::string name;
    std::string expression;
    // The variables of `expression` that come from the built-ins themselves (`i = r*w + c`: r and c), as
    // the lines above define them; the recipe counts when its expression or one of these has a built-in.
    std::vector<IndexPart> parts;
    bool empty() const { return expression.empty(); }
};
IndexRecipe index_recipe(const std::string& source, int line);

// The recipe told for one thread: "i = blockIdx.x*blockDim.x + threadIdx.x = 7*256 + 13", or with its parts
// "i = r*w + c, where r = blockIdx.y*blockDim.y + threadIdx.y = 1*16 + 4 = 20, c = ..."; empty for an empty recipe.
std::string tell_index(const IndexRecipe& recipe, const ThreadValues& values);

// index_recipe and tell_index in one: for a single element.
std::string index_story(const std::string& source, int line, const ThreadValues& values);

}  // namespace kplay
