// The exported PyTorch snippets, run for real: each is written out, run by python3 on the GPU, builds
// its kernel (torch.cuda._compile_kernel where this PyTorch has it, else load_inline; and once more
// forced through load_inline), runs it on random tensors at the task's default size and checks the
// outputs against PyTorch. Skips, with the reason, where there is no GPU or no PyTorch with CUDA.
#include <gtest/gtest.h>

#include <cstdio>

#include "export/torch_export.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"

namespace {

// Empty when python3 has PyTorch with a CUDA device; otherwise why not.
std::string why_no_torch() {
    const auto [code, output] = kplay::test::run_shell("python3 -c 'import torch; assert torch.cuda.is_available(), \"torch.cuda.is_available() is False\"; "
                                      "print(torch.__version__, torch.version.cuda, hasattr(torch.cuda, \"_compile_kernel\"))'");
    if (code != 0) return "python3 cannot use PyTorch with CUDA: " + output;
    std::printf("PyTorch %s", output.c_str());  // version, CUDA version, whether _compile_kernel exists
    return "";
}

std::string snippet_of(const std::string& relative) {
    const auto path = kplay::test::kernels_dir() / relative;
    const std::string source = kplay::read_source_file(path);
    const kplay::KernelSpec spec = kplay::resolve_kernel_spec(source, path);
    return kplay::torch_snippet(kplay::prepare_torch_export(path, source, spec, {}, {}));
}

void expect_snippet_passes(const std::string& relative, const std::string& build) {
    SCOPED_TRACE(relative + " with KPLAY_TORCH_BUILD=" + build);
    kplay::test::TempDir dir;
    const auto file = dir.write("snippet.py", snippet_of(relative));
    const auto [code, output] = kplay::test::run_shell("cd " + dir.path().string() + " && KPLAY_TORCH_BUILD=" + build + " python3 " + file.string());
    std::printf("%s (%s):\n%s", relative.c_str(), build.c_str(), output.c_str());
    EXPECT_EQ(code, 0) << output;
    EXPECT_NE(output.find("kplay export check: PASS"), std::string::npos) << output;
    if (build == "load_inline") {
        EXPECT_NE(output.find("built with torch.utils.cpp_extension.load_inline"), std::string::npos) << output;
    }
}

}  // namespace

TEST(GpuTorchExport, TheLaddersStepsPassInPyTorch) {
    if (const std::string why = kplay::test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const std::string why = why_no_torch(); !why.empty()) GTEST_SKIP() << why;
    for (const char* file : {"grayscale/01_seed_1d.cu", "matmul/02_tiled_dynamic_smem.cu", "matmul/05_vectorized_loads.cu",
                             "reduction/01_atomic_per_element.cu", "reduction/04_warp_shuffle.cu", "reduction/06_float4.cu",
                             "reduction/07_float4_unrolled.cu", "softmax/01_three_passes_thread_per_row.cu",
                             "softmax/02_block_per_row_shared.cu", "softmax/03_online_warp_per_row.cu",
                             "softmax/04_float4_row_in_registers.cu", "vector_add/02_float4.cu"})
        expect_snippet_passes(file, "auto");
}

TEST(GpuTorchExport, TheSameThroughLoadInline) {
    if (const std::string why = kplay::test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const std::string why = why_no_torch(); !why.empty()) GTEST_SKIP() << why;
    for (const char* file : {"grayscale/01_seed_1d.cu", "matmul/02_tiled_dynamic_smem.cu", "reduction/06_float4.cu",
                             "softmax/04_float4_row_in_registers.cu"})
        expect_snippet_passes(file, "load_inline");
}

// torch.cuda._compile_kernel itself (NVRTC), where this PyTorch has it: forced, so a fallback cannot hide a failure.
TEST(GpuTorchExport, TheSameThroughCompileKernel) {
    if (const std::string why = kplay::test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const std::string why = why_no_torch(); !why.empty()) GTEST_SKIP() << why;
    if (kplay::test::run_shell("python3 -c 'import torch, sys; sys.exit(0 if hasattr(torch.cuda, \"_compile_kernel\") else 1)'").first != 0)
        GTEST_SKIP() << "this PyTorch has no torch.cuda._compile_kernel";
    for (const char* file : {"grayscale/01_seed_1d.cu", "softmax/03_online_warp_per_row.cu", "matmul/02_tiled_dynamic_smem.cu"})
        expect_snippet_passes(file, "compile_kernel");
}
