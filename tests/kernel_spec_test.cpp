// The kplay annotation and inference from the folder and the kernel list, with their exact messages.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kernel_spec.hpp"

using namespace kplay;

namespace {
std::string error_of(const std::string& source, const std::string& path) {
    try {
        resolve_kernel_spec(source, path);
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}
}  // namespace

TEST(KernelSpec, ParsesFullAnnotation) {
    const std::string source =
        "// kplay: task=matmul kernel=matmul_k<16> args=a,b,c,M,N,K,tw=16 launch=2d block=tw,tw smem=2 * tw * tw * 4 "
        "defines=TILE=16,FAST tol=3\n"
        "template <int T> __global__ void matmul_k(float* a, float* b, float* c, int M, int N, int K, int tw) {}\n";
    const KernelSpec spec = resolve_kernel_spec(source, "anywhere/x.cu");
    EXPECT_EQ(spec.task.name, "matmul");
    EXPECT_EQ(spec.kernel, "matmul_k<16>");
    EXPECT_EQ(spec.args, (std::vector<std::string>{"a", "b", "c", "M", "N", "K", "tw=16"}));
    EXPECT_EQ(spec.launch_dims, 2);
    EXPECT_EQ(spec.block, (std::vector<std::string>{"tw", "tw"}));
    EXPECT_TRUE(spec.grid.empty());
    EXPECT_EQ(spec.smem, "2*tw*tw*4");
    ASSERT_EQ(spec.defines.size(), 2u);
    EXPECT_EQ(spec.defines[0], (std::pair<std::string, std::string>{"TILE", "16"}));
    EXPECT_EQ(spec.defines[1], (std::pair<std::string, std::string>{"FAST", ""}));
    EXPECT_EQ(spec.tolerance.value_or(0), 3.0);
    EXPECT_EQ(spec.annotation_line, 1);
    EXPECT_TRUE(spec.inferred.empty());
}

TEST(KernelSpec, InfersEverythingForASeedKernelInATaskFolder) {
    const std::string source =
        "__global__ void rgb_to_grayscale_kernel(unsigned char* x, unsigned char* out, int n) {}\n";
    const KernelSpec spec = resolve_kernel_spec(source, "kernels/grayscale/mine.cu");
    EXPECT_EQ(spec.task.name, "grayscale");
    EXPECT_EQ(spec.kernel, "rgb_to_grayscale_kernel");
    EXPECT_EQ(spec.args, (std::vector<std::string>{"in", "out", "n"}));
    EXPECT_EQ(spec.launch_dims, 1);
    EXPECT_EQ(spec.block, std::vector<std::string>{"256"});
    EXPECT_EQ(spec.inferred.size(), 5u);

    const KernelSpec two_d = resolve_kernel_spec("__global__ void g(unsigned char* x, unsigned char* o, int w, int h) {}",
                                                 "grayscale/g.cu");
    EXPECT_EQ(two_d.launch_dims, 2);
    EXPECT_EQ(two_d.args, (std::vector<std::string>{"in", "out", "w", "h"}));
}

TEST(KernelSpec, TwoKernelsNamesBothAndAsks) {
    const std::string message = error_of("__global__ void first(int* a) {}\n\n__global__ void second(int* a) {}\n",
                                         "matmul/two.cu");
    EXPECT_NE(message.find("2 kernels: first (line 1), second (line 3)"), std::string::npos) << message;
    EXPECT_NE(message.find("kernel=NAME"), std::string::npos) << message;
}

TEST(KernelSpec, MissingKernelListsTheOnesThere) {
    const std::string message = error_of("// kplay: task=matmul kernel=nope\n__global__ void here(float* a) {}\n", "x.cu");
    EXPECT_NE(message.find("no kernel named 'nope'"), std::string::npos) << message;
    EXPECT_NE(message.find("here (line 2)"), std::string::npos) << message;
}

TEST(KernelSpec, ExactMessagesForOtherProblems) {
    EXPECT_NE(error_of("__global__ void k(float* a) {}", "misc/k.cu").find("cannot tell the task"), std::string::npos);
    EXPECT_NE(error_of("// kplay: task=blur\n__global__ void k() {}", "k.cu").find("unknown task 'blur'"), std::string::npos);
    EXPECT_NE(error_of("// kplay: task=matmul colour=red\n", "k.cu").find("unknown key 'colour'"), std::string::npos);
    EXPECT_NE(error_of("// kplay: task=matmul launch=3d\n", "k.cu").find("launch must be 1d or 2d"), std::string::npos);
    EXPECT_NE(error_of("template <int T> __global__ void t(float* a) {}", "matmul/t.cu").find("is a template"),
              std::string::npos);
    EXPECT_NE(error_of("__global__ void k(float* a, int n, int tw) {}", "matmul/k.cu").find("cannot infer the arguments"),
              std::string::npos);
    EXPECT_NE(error_of("int main() {}", "matmul/k.cu").find("no __global__ kernel"), std::string::npos);
}

TEST(KernelSpec, AnnotationMustBeALineComment) {
    EXPECT_FALSE(find_annotation("int x; // not kplay: here\n").has_value());
    EXPECT_FALSE(find_annotation("/* kplay: task=matmul */\n").has_value());
    const auto annotation = find_annotation("\n\n   // kplay: task=matmul\n");
    ASSERT_TRUE(annotation.has_value());
    EXPECT_EQ(annotation->line, 3);
}

TEST(KernelSpec, SplitListKeepsParenthesesTogether) {
    EXPECT_EQ(split_list("cdiv(n,256), 1 ,k<1,2>"), (std::vector<std::string>{"cdiv(n,256)", "1", "k<1,2>"}));
}

// nvrtc= passes on the options that change how device code compiles, in NVRTC's long spelling, and
// refuses by name those kplay sets itself or that write files; include= lists header folders as written.
TEST(KernelSpec, NvrtcOptionsAndHeaderFoldersFromTheAnnotation) {
    const KernelSpec spec = resolve_kernel_spec(
        "// kplay: task=matmul kernel=k nvrtc=-default-device,-maxrregcount=64,-diag-suppress=177,550,--use_fast_math "
        "include=cute/include,/opt/cutlass/include\n"
        "__global__ void k(float* a, float* b, float* c, int M, int N, int K) {}\n",
        "matmul/k.cu");
    EXPECT_EQ(spec.nvrtc_options, (std::vector<std::string>{"--device-as-default-execution-space", "--maxrregcount=64",
                                                            "--diag-suppress=177,550", "--use_fast_math"}));
    EXPECT_EQ(spec.include_dirs, (std::vector<std::string>{"cute/include", "/opt/cutlass/include"}));

    const auto refusal = [](const std::string& options) {
        return error_of("// kplay: task=matmul kernel=k nvrtc=" + options +
                            "\n__global__ void k(float* a, float* b, float* c, int M, int N, int K) {}\n",
                        "k.cu");
    };
    EXPECT_EQ(refusal("-arch=sm_80"), "k.cu:1: kplay annotation: nvrtc=-arch=sm_80: the target is arch= in the annotation (kplay compiles for it)");
    EXPECT_EQ(refusal("-I/usr/include"),
              "k.cu:1: kplay annotation: nvrtc=-I/usr/include: a header folder is include= in the annotation (kplay resolves it beside the file)");
    EXPECT_EQ(refusal("--time=t.csv"), "k.cu:1: kplay annotation: nvrtc=--time=t.csv: it writes a file; kplay times the compile itself");
    EXPECT_EQ(refusal("-rdc=true"), "k.cu:1: kplay annotation: nvrtc=-rdc=true: kplay loads one compiled module and links nothing to it");
    EXPECT_EQ(refusal("-maxrregcount"), "k.cu:1: kplay annotation: nvrtc=-maxrregcount: it takes a value: --maxrregcount=VALUE");
    EXPECT_EQ(refusal("default-device"),
              "k.cu:1: kplay annotation: nvrtc=default-device: an NVRTC option starts with '-' (e.g. nvrtc=-default-device,-use_fast_math)");
    EXPECT_NE(refusal("-frobnicate").find("nvrtc=-frobnicate: not an NVRTC option kplay passes on (it passes: -default-device, "),
              std::string::npos);
}
