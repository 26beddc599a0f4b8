// Host code beside a kernel: what the kernel's build sets aside (lines kept), and the launch read from a
// load_inline wrapper or a main(), plain or not (with the key to add).
#include <gtest/gtest.h>

#include "base/text.hpp"
#include "kernel_file/host_code.hpp"
#include "kernel_file/host_launch.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

const std::string kWrapper = R"(#include <torch/extension.h>
#include <stdio.h>
#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be on the GPU")
#define CHECK_INPUT(x) \
    CHECK_CUDA(x)
inline unsigned int cdiv(unsigned int a, unsigned int b) { return (a + b - 1) / b; }
__device__ float scale(float v) { return 2 * v; }
__host__ __device__ inline int twice(int v) { return 2 * v; }
constexpr int kBlock = 256;
struct Pair { float a, b; float sum() const { return a + b; } };
__global__ void k(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i];
}
torch::Tensor wrap(torch::Tensor input) {
    CHECK_INPUT(input);
#ifdef VERBOSE
    printf("%d\n", 1);
#endif
    int threads = 256;
    k<<<cdiv(input.numel(), threads), threads>>>(input.data_ptr<unsigned char>(), input.data_ptr<unsigned char>(), input.numel());
    return input;
}
PYBIND11_MODULE(ext, m) { m.def("wrap", &wrap); }
#ifdef KPLAY_REFERENCE
void kplay_reference(const unsigned char* x, unsigned char* out, int n) { for (int i = 0; i < n; ++i) out[i] = x[i]; }
#endif
)";

TEST(HostCode, SetsAsideTheWrapperKeepingEveryLineAndTheKernelAsWritten) {
    const KernelBuildSource build = set_aside_host_code(kWrapper);
    const auto before = split_lines(kWrapper);
    const auto after = split_lines(build.text);
    ASSERT_EQ(before.size(), after.size());
    ASSERT_EQ(build.text.size(), std::string(kWrapper).size());  // columns kept too
    auto kept = [&](int line) { return after[static_cast<size_t>(line - 1)] == before[static_cast<size_t>(line - 1)]; };
    auto blank = [&](int line) { return trim(after[static_cast<size_t>(line - 1)]).empty(); };
    EXPECT_TRUE(blank(1));  // torch/extension.h
    EXPECT_TRUE(kept(2));   // stdio.h: NVRTC's stand-in has it
    EXPECT_TRUE(blank(3) && blank(4) && blank(5));  // TORCH_CHECK macros, the continuation too
    EXPECT_TRUE(blank(6));  // the host cdiv
    for (int line : {7, 8, 9, 10, 11, 12, 13, 14}) EXPECT_TRUE(kept(line)) << line;  // device, constexpr, struct, kernel
    for (int line : {15, 16, 20, 21, 22, 23, 24}) EXPECT_TRUE(blank(line)) << line;  // the wrapper and PYBIND11_MODULE
    EXPECT_TRUE(kept(17) && kept(19));  // its #ifdef and #endif stay, so the nesting holds
    EXPECT_TRUE(blank(18));
    for (int line : {25, 26, 27}) EXPECT_TRUE(kept(line)) << line;  // the host reference is the reference's build's
    EXPECT_EQ(describe_set_aside(build.set_aside),
              "host code set aside for the kernel's build: #include <torch/extension.h> (line 1), macro CHECK_CUDA (line 3), "
              "macro CHECK_INPUT (lines 4-5), host function cdiv (line 6), host function wrap (lines 15-23), host function "
              "PYBIND11_MODULE (line 24)");
}

TEST(HostCode, KeepsAFileWithoutHostCodeAsItIs) {
    for (const auto& file : test::kernel_files("grayscale")) {
        const std::string source = test::read_file(file);
        const KernelBuildSource build = set_aside_host_code(source);
        EXPECT_EQ(build.text, source) << file;
        EXPECT_TRUE(build.set_aside.empty()) << file << ": " << describe_set_aside(build.set_aside);
    }
}

TEST(HostCode, FunctionsInNamespacesAndDeviceMacrosAreReadAsSuch) {
    const std::string source = "#define HD __host__ __device__\nnamespace a { HD int f(int x) { return x; }\nint g() { return 1; } }\n"
                               "extern \"C\" { void h() {} }\ntemplate <typename T>\nvoid launch(T* p) {}\n";
    const auto functions = find_defined_functions(source);
    ASSERT_EQ(functions.size(), 4u);
    EXPECT_EQ(functions[0].name, "f");
    EXPECT_TRUE(functions[0].is_device);
    EXPECT_EQ(functions[1].name, "g");
    EXPECT_FALSE(functions[1].is_device);
    EXPECT_EQ(functions[2].name, "h");
    EXPECT_EQ(functions[3].name, "launch");
    EXPECT_EQ(functions[3].line, 6);
    const KernelBuildSource build = set_aside_host_code(source);
    EXPECT_EQ(split_lines(build.text).size(), split_lines(source).size());
    EXPECT_TRUE(trim(split_lines(build.text)[4]).empty());  // template <typename T> goes with its function
}

// The grayscale task's names (w, h, n) and binding (in, out, n).
std::vector<HostLaunch> grayscale_launches(const std::string& source) {
    return read_host_launches(source, "k", {"in", "out", "n"}, {"in", "out"}, {{"w", 1280}, {"h", 800}, {"n", 1024000}});
}

TEST(HostLaunch, APlainLaunchIsReadOverTheTasksValues) {
    const std::string source = "__global__ void k(unsigned char* x, unsigned char* y, int n) {}\n"
                               "torch::Tensor f(torch::Tensor t) {\n  int h = t.size(1), w = t.size(2);\n  int threads = 256;\n"
                               "  k<<<cdiv(w*h, threads), threads>>>(t.data_ptr<unsigned char>(), t.data_ptr<unsigned char>(), w*h);\n}\n";
    const auto launches = grayscale_launches(source);
    ASSERT_EQ(launches.size(), 1u);
    EXPECT_EQ(launches[0].problem, "");
    EXPECT_EQ(launches[0].line, 5);
    EXPECT_EQ(launches[0].function, "f");
    EXPECT_EQ(launches[0].block, std::vector<std::string>{"256"});
    EXPECT_EQ(launches[0].grid, std::vector<std::string>{"cdiv(n,256)"});
}

TEST(HostLaunch, Dim3VariablesAndAPmppMainAreRead) {
    const std::string source = "__global__ void mm(float* a, float* b, float* c, int rows, int cols, int inner) {}\n"
                               "int main() {\n  const int M = 300, N = 200, K = 100;\n  dim3 block(16, 16);\n"
                               "  dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1u) / block.y, 1);\n"
                               "  mm<<<grid, block, 0>>>(d_a, d_b, d_c, M, N, K);\n}\n";
    const auto launches = read_host_launches(source, "mm", {"a", "b", "c", "M", "N", "K"}, {"a", "b", "c"},
                                             {{"M", 512}, {"N", 512}, {"K", 512}});
    ASSERT_EQ(launches.size(), 1u);
    EXPECT_EQ(launches[0].problem, "");
    EXPECT_EQ(launches[0].block, (std::vector<std::string>{"16", "16"}));
    EXPECT_EQ(launches[0].grid, (std::vector<std::string>{"(N+16-1)/16", "(M+16-1)/16"}));
    EXPECT_EQ(launches[0].smem, "");
}

TEST(HostLaunch, MacrosAndNamespaceConstantsAreRead) {
    const std::string source = "#define TILE_WIDTH 16\nconstexpr int kThreads = 128;\n"
                               "__global__ void k(unsigned char* x, unsigned char* y, int n) {}\n"
                               "__global__ void mm(float* a, float* b, float* c, int rows, int cols, int inner) {}\n"
                               "void f(unsigned char* x, unsigned char* y, int n) { k<<<cdiv(n, kThreads), kThreads>>>(x, y, n); }\n"
                               "void g(float* a, float* b, float* c, int m, int n, int k) {\n"
                               "  dim3 block(TILE_WIDTH, TILE_WIDTH);\n  mm<<<dim3(cdiv(n, TILE_WIDTH), cdiv(m, TILE_WIDTH)), block>>>(a, b, c, m, n, k);\n}\n";
    const auto gray = grayscale_launches(source);
    ASSERT_EQ(gray.size(), 1u);
    EXPECT_EQ(gray[0].problem, "");
    EXPECT_EQ(gray[0].grid, std::vector<std::string>{"cdiv(n,128)"});
    const auto mm = read_host_launches(source, "mm", {"a", "b", "c", "M", "N", "K"}, {"a", "b", "c"}, {{"M", 512}, {"N", 512}, {"K", 512}});
    ASSERT_EQ(mm.size(), 1u);
    EXPECT_EQ(mm[0].problem, "");
    EXPECT_EQ(mm[0].block, (std::vector<std::string>{"16", "16"}));
    EXPECT_EQ(mm[0].grid, (std::vector<std::string>{"cdiv(N,16)", "cdiv(M,16)"}));
}

TEST(HostLaunch, ALaunchThatIsNotPlainSaysWhy) {
    const std::string prefix = "__global__ void k(unsigned char* x, unsigned char* y, int n) {}\nvoid f(unsigned char* x, unsigned char* y, int n) {\n";
    struct Case {
        std::string body, problem;
    };
    for (const Case& c : {Case{"int threads = pick();\nk<<<cdiv(n, threads), threads>>>(x, y, n);", "it calls pick(), which kplay does not read (it reads cdiv, min and max)"},
                          Case{"int threads = 256;\nif (n < 99) threads = 64;\nk<<<cdiv(n, threads), threads>>>(x, y, n);",
                               "'threads' is set more than once before the launch"},
                          Case{"k<<<cdiv(n, 256), 256>>>(x, y, n > 5 ? n : 5);", ""},
                          Case{"k<<<blocks_for(n), 256>>>(x, y, n);", "it calls blocks_for(), which kplay does not read (it reads cdiv, min and max)"},
                          Case{"k<<<n / 256.0, 256>>>(x, y, n);", "the number '256.0' is not a plain integer"},
                          Case{"k<<<n >> 8, 256>>>(x, y, n);", "it uses '>>', which kplay's expressions do not have"},
                          Case{"k<<<cdiv(m, 256), 256>>>(x, y, n);",
                               "'m' is neither a value passed to the kernel, a size of the task, nor a variable set once before the launch"},
                          Case{"k<<<cdiv(n, 256), 256>>>(x, y, n);\nk<<<cdiv(n, 128), 128>>>(x, y, n);", ""}}) {
        SCOPED_TRACE(c.body);
        const auto launches = grayscale_launches(prefix + c.body + "\n}\n");
        ASSERT_FALSE(launches.empty());
        EXPECT_EQ(launches[0].problem, c.problem);
    }
}

TEST(HostLaunch, TheSpecTakesAPlainLaunchAndNamesItsLine) {
    const std::string source = test::read_file(test::data_dir() / "host_code" / "grayscale_load_inline.cu");
    const KernelSpec spec = resolve_kernel_spec(source, "grayscale_load_inline.cu");
    EXPECT_EQ(spec.block, std::vector<std::string>{"256"});
    EXPECT_EQ(spec.grid, std::vector<std::string>{"cdiv(n,256)"});
    EXPECT_EQ(spec.args, (std::vector<std::string>{"in", "out", "n"}));
    const std::string notes = join(spec.inferred, "; ");
    EXPECT_NE(notes.find("launch from the host code: block=256 grid=cdiv(n,256), as the launch in rgb_to_grayscale at line 29 launches it"),
              std::string::npos) << notes;
    EXPECT_NE(notes.find("host function rgb_to_grayscale (lines 23-33)"), std::string::npos) << notes;

    // The annotation's block wins, and the wrapper is not read.
    std::string annotated = source;
    annotated.replace(0, annotated.find('\n'), "// kplay: task=grayscale block=128");
    const KernelSpec own = resolve_kernel_spec(annotated, "grayscale_load_inline.cu");
    EXPECT_EQ(own.block, std::vector<std::string>{"128"});
    EXPECT_TRUE(own.grid.empty());
}

TEST(HostLaunch, ALaunchNotReadSuggestsTheExactKeys) {
    std::string source = test::read_file(test::data_dir() / "host_code" / "grayscale_load_inline.cu");
    const std::string plain = "int threads = 256;";
    source.replace(source.find(plain), plain.size(), "int threads = pick_threads();");
    const KernelSpec spec = resolve_kernel_spec(source, "grayscale_load_inline.cu");
    EXPECT_EQ(spec.block, std::vector<std::string>{"256"});  // kplay's own, over the auto grid
    EXPECT_TRUE(spec.grid.empty());
    const std::string notes = join(spec.inferred, "; ");
    EXPECT_NE(notes.find("the launch in rgb_to_grayscale at line 29 was not read: it calls pick_threads(), which kplay does not read (it reads cdiv, min and max). "
                         "kplay launches its own block over the task's extent instead; to launch as the host code does, add "
                         "'// kplay: block=threads grid=cdiv(n,threads)' with every name a size of the task (h, n, w)"),
              std::string::npos) << notes;
}

}  // namespace
}  // namespace kplay
