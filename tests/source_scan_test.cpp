// Kernel discovery from source text, comment blanking, BOM handling and include resolution.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"

using namespace kplay;

TEST(SourceScan, FindsKernelsWithParamsTemplatesAndExternC) {
    const std::string source = R"src(
// __global__ void commented_out(int x) {}
extern "C" __global__ void plain(unsigned char* x, unsigned char* out, int n) {}
template <int TW>
__global__ void tiled(float *m, const float* __restrict__ n, float *out, int h, int w, int k) {}
const char* s = "__global__ void in_string()";
__global__ void arr(float a[], int n = 3);
template <int T> __global__ void __launch_bounds__(T * 2) bounded(float* a) {}
)src";
    const auto kernels = find_kernels(source);
    ASSERT_EQ(kernels.size(), 4u);
    EXPECT_EQ(kernels[3].name, "bounded");
    EXPECT_EQ(kernels[3].params.size(), 1u);
    EXPECT_EQ(kernels[0].name, "plain");
    EXPECT_TRUE(kernels[0].is_extern_c);
    EXPECT_FALSE(kernels[0].is_template);
    ASSERT_EQ(kernels[0].params.size(), 3u);
    EXPECT_EQ(kernels[0].params[0].type, "unsigned char*");
    EXPECT_EQ(kernels[0].params[2].name, "n");
    EXPECT_EQ(kernels[1].name, "tiled");
    EXPECT_TRUE(kernels[1].is_template);
    EXPECT_EQ(kernels[1].line, 5);  // the line of __global__
    EXPECT_EQ(kernels[1].params[1].name, "n");
    EXPECT_TRUE(kernels[1].params[1].is_pointer());
    EXPECT_FALSE(kernels[1].params[3].is_pointer());
    EXPECT_TRUE(kernels[2].params[0].is_pointer());
    EXPECT_EQ(kernels[2].params[1].name, "n");
}

TEST(SourceScan, BlankingKeepsLinesAndOffsets) {
    const std::string source = "a /* x\ny */ b // z\n\"s//\" 'c'\n";
    const std::string blanked = blank_comments_and_strings(source);
    EXPECT_EQ(blanked.size(), source.size());
    EXPECT_EQ(std::count(blanked.begin(), blanked.end(), '\n'), 3);
    EXPECT_EQ(blanked.find('x'), std::string::npos);
    EXPECT_NE(blanked.find('b'), std::string::npos);
}

TEST(SourceScan, ReadStripsBomAndRejectsMissingOrBinaryFiles) {
    test::TempDir dir;
    const auto bom = dir.write("bom.cu", "\xEF\xBB\xBF// kplay: task=grayscale\r\n__global__ void k() {}\r\n");
    EXPECT_EQ(read_source_file(bom).substr(0, 8), "// kplay");
    EXPECT_THROW(read_source_file(dir.path() / "missing.cu"), InputError);
    EXPECT_THROW(read_source_file(dir.path()), InputError);
    EXPECT_THROW(read_source_file(dir.write("bin.cu", std::string("ab\0cd", 5))), InputError);
}

TEST(SourceScan, ReadingAFileTurnsCrlfIntoLf) {
    test::TempDir dir;
    EXPECT_EQ(read_source_file(dir.write("windows.cu", "// kplay: task=matmul\r\n__global__ void k() {}\r\n")),
              "// kplay: task=matmul\n__global__ void k() {}\n");
    EXPECT_EQ(read_source_file(dir.write("lone.cu", "a\rb\n")), "a\rb\n");  // a lone CR is not a line ending
}

TEST(SourceScan, ResolvesIncludesRecursively) {
    test::TempDir dir;
    dir.write("inc/a.cuh", "#include \"b.cuh\"\n");
    dir.write("inc/b.cuh", "#pragma once\n");
    dir.write("src/local.cuh", "int x;\n");
    std::vector<std::string> unresolved;
    const auto found = find_included_files("#include \"local.cuh\"\n#include <a.cuh>\n#include <cuda_fp16.h>\n",
                                           dir.path() / "src", {dir.path() / "inc"}, &unresolved);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(unresolved, std::vector<std::string>{"cuda_fp16.h"});
}

// Found by tests/fuzz (fuzz_spec): a long run of spaces after `template` or a long `extern "C" {` block
// overflowed the stack inside std::regex. Both read as short ones do.
TEST(SourceScan, LongTemplatesAndExternCBlocksAreHarmless) {
    const std::string spaces(200000, ' ');
    const auto templated = find_kernels("template" + spaces + "<int N> __global__ void k(int n) {}\n");
    ASSERT_EQ(templated.size(), 1u);
    EXPECT_TRUE(templated[0].is_template);
    std::string block = "extern \"C\" {\n";
    for (int i = 0; i < 30000; ++i) block += "int a;\n";
    const auto in_block = find_kernels(block + "__global__ void k(int n) {}\n}\n");
    ASSERT_EQ(in_block.size(), 1u);
    EXPECT_TRUE(in_block[0].is_extern_c);
    EXPECT_FALSE(in_block[0].is_template);
    const auto closed = find_kernels("extern \"C\" { void f(); }\n__global__ void k(int n) {}\n");
    ASSERT_EQ(closed.size(), 1u);
    EXPECT_FALSE(closed[0].is_extern_c);
    // The same for an #include line (find_included_files read it with std::regex too).
    test::TempDir dir;
    dir.write("a.cuh", "int x;\n");
    std::vector<std::string> unresolved;
    const auto included = find_included_files("#" + spaces + "include" + spaces + "\"a.cuh\"\n#include <" + spaces + "\n",
                                              dir.path(), {}, &unresolved);
    ASSERT_EQ(included.size(), 1u);
    EXPECT_TRUE(unresolved.empty());
}
