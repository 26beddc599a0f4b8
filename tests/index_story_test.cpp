// How an element's index came about, told from the kernel's text: a 1D index, a 2D one through the row
// and column it is made of, a subscript with the built-ins in it, and stores the text does not explain.
#include "kernel_file/index_story.hpp"

#include <gtest/gtest.h>

using namespace kplay;

namespace {

ThreadValues thread(unsigned bx, unsigned by, unsigned tx, unsigned ty, unsigned dx, unsigned dy) {
    ThreadValues v;
    v.block_idx[0] = bx, v.block_idx[1] = by;
    v.thread_idx[0] = tx, v.thread_idx[1] = ty;
    v.block_dim[0] = dx, v.block_dim[1] = dy;
    return v;
}

}  // namespace

TEST(IndexStory, AOneDimensionalIndexWithItsNumbers) {
    const std::string source = "__global__ void k(float* out, int n) {\n"
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "    if (i < n) out[i] = 1;\n"
                               "}\n";
    EXPECT_EQ(index_story(source, 3, thread(7, 0, 13, 0, 256, 1)), "i = blockIdx.x * blockDim.x + threadIdx.x = 7 * 256 + 13");
}

TEST(IndexStory, ATwoDimensionalIndexIsToldThroughItsRowAndColumn) {
    const std::string source = "__global__ void k(unsigned char* x, unsigned char* out, int w, int h) {\n"
                               "    int c = blockIdx.x*blockDim.x + threadIdx.x;\n"
                               "    int r = blockIdx.y*blockDim.y + threadIdx.y;\n"
                               "    if (c<w && r<h) {\n"
                               "        int i = r*w + c;\n"
                               "        out[i] = x[i];\n"
                               "    }\n"
                               "}\n";
    const IndexRecipe recipe = index_recipe(source, 6);
    EXPECT_EQ(recipe.name, "i");
    EXPECT_EQ(recipe.expression, "r*w + c");
    ASSERT_EQ(recipe.parts.size(), 2u);
    EXPECT_EQ(recipe.parts[0].name, "r");
    EXPECT_EQ(recipe.parts[1].name, "c");
    EXPECT_EQ(tell_index(recipe, thread(2, 1, 8, 4, 16, 16)),
              "i = r*w + c, where r = blockIdx.y*blockDim.y + threadIdx.y = 1*16 + 4 = 20, c = blockIdx.x*blockDim.x + threadIdx.x = 2*16 + 8 = 40");
}

TEST(IndexStory, ASubscriptWithBuiltInsAndAValueThatIsNotPlainArithmetic) {
    const std::string source = "__global__ void k(float* out) {\n"
                               "    const size_t col = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
                               "    out[threadIdx.y * 32 + col] = 0;\n"
                               "}\n";
    // The subscript has a built-in: told as it is. col's definition has a cast: told without its value.
    EXPECT_EQ(index_story(source, 3, thread(1, 0, 2, 3, 32, 4)),
              "index threadIdx.y * 32 + col = 3 * 32 + col, where col = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x = "
              "static_cast<size_t>(1) * 32 + 2");
}

TEST(IndexStory, StoresTheTextDoesNotExplainTellNothing) {
    const std::string source = "__global__ void k(float* out, const int* where, int n) {\n"
                               "    int j = where[n];\n"
                               "    out[j] = 1;\n"
                               "    out[n] = 2;\n"
                               "    *out = 3;\n"
                               "}\n";
    EXPECT_EQ(index_story(source, 3, {}), "");
    EXPECT_EQ(index_story(source, 4, {}), "");
    EXPECT_EQ(index_story(source, 5, {}), "");
    EXPECT_EQ(index_story(source, 99, {}), "");
}

// Lecture 5's tiled matmul declares its row and column in one declaration, from variables that hold the
// thread's index: each declarator is found on its own, and the numbers reach through those variables.
TEST(IndexStory, DeclaratorsOfOneDeclarationAndVariablesOfVariables) {
    const std::string source = "__global__ void k(float* out, int h, int w) {\n"
                               "    int tc=threadIdx.x, tr=threadIdx.y;\n"
                               "    int r=blockIdx.y*blockDim.y+tr, c=blockIdx.x*blockDim.x+tc;\n"
                               "    if (r<h && c<w) out[r*w + c] = 0;\n"
                               "}\n";
    EXPECT_EQ(index_story(source, 4, thread(2, 1, 8, 4, 16, 16)),
              "index r*w + c, where r = blockIdx.y*blockDim.y+tr = 1*16+(4) = 20, c = blockIdx.x*blockDim.x+tc = 2*16+(8) = 40");
}
