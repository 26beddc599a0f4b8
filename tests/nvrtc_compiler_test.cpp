// NVRTC compiles (no GPU needed): PTX and CUBIN, name expressions, includes, and errors as values.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "base/error.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {
CompileRequest request(const std::string& source, const std::string& arch = "compute_90") {
    CompileRequest r;
    r.source = source;
    r.source_path = "unit/k.cu";
    r.options.arch = arch;
    const EngineConfig config = default_engine_config();
    r.options.include_dirs = {config.kernels_include_dir.string(), config.cuda_include_dir.string()};
    return r;
}
}  // namespace

TEST(NvrtcCompiler, ProducesPtxAndCubin) {
    const std::string source = "extern \"C\" __global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n";
    const CompileResult ptx = compile_with_nvrtc(request(source));
    ASSERT_TRUE(ptx.ok) << ptx.log;
    EXPECT_FALSE(ptx.is_cubin);
    EXPECT_NE(ptx.binary.find(".entry k"), std::string::npos);
    EXPECT_GT(ptx.compile_ms, 0);
    EXPECT_NE(std::find(ptx.options_used.begin(), ptx.options_used.end(), "-lineinfo"), ptx.options_used.end());

    const CompileResult cubin = compile_with_nvrtc(request(source, "sm_90"));
    ASSERT_TRUE(cubin.ok) << cubin.log;
    EXPECT_TRUE(cubin.is_cubin);
    EXPECT_EQ(cubin.binary.substr(0, 4), "\x7f" "ELF");
}

TEST(NvrtcCompiler, NameExpressionsLowerTemplatesAndCppNames) {
    CompileRequest r = request(
        "template <int T> __global__ void tk(float* a) { a[0] = T; }\n"
        "__global__ void plain_cpp(float* a) { a[0] = 2; }\n");
    r.name_expressions = {"tk<16>", "plain_cpp"};
    const CompileResult result = compile_with_nvrtc(r);
    ASSERT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.lowered_names.at("tk<16>"), "_Z2tkILi16EEvPf");
    EXPECT_EQ(result.lowered_names.at("plain_cpp"), "_Z9plain_cppPf");
}

TEST(NvrtcCompiler, IncludesKplayHeaderAndToolkitHeaders) {
    const CompileResult result = compile_with_nvrtc(request(
        "#include \"kplay.cuh\"\n#include <cuda_fp16.h>\n"
        "extern \"C\" __global__ void k(__half* a, int n) { if (threadIdx.x < cdiv(n, 2)) a[0] = __float2half(1.0f); }\n"));
    EXPECT_TRUE(result.ok) << result.log;
}

TEST(NvrtcCompiler, SyntaxErrorIsAValueWithLineAndColumn) {
    const CompileResult result = compile_with_nvrtc(request("__global__ void k(float* a) {\n    a[0] = 1.0f\n}\n"));
    EXPECT_FALSE(result.ok);
    ASSERT_GE(result.count(Severity::error), 1);
    const Diagnostic& error = result.diagnostics.front();
    EXPECT_EQ(error.file, "unit/k.cu");
    EXPECT_EQ(error.line, 3);  // NVRTC reports a missing ';' at the next token: the '}' on line 3
    EXPECT_EQ(error.column, 1);
    EXPECT_NE(error.message.find("expected a \";\""), std::string::npos) << error.message;
    EXPECT_FALSE(result.log.empty());
}

// wgmma is sm_90a's own: for sm_90 the front end passes and ptxas fails. The errors count as errors, at
// the source line of the asm through the PTX's line info, with the reason in words.
TEST(NvrtcCompiler, PtxasErrorsPointAtTheSourceLineAndSayWhichTargetHasTheInstruction) {
    const CompileResult result = compile_with_nvrtc(request(
        "__global__ void k(float* a) {\n"
        "    a[threadIdx.x] = 1.0f;\n"
        "    asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n"
        "}\n",
        "sm_90"));
    EXPECT_FALSE(result.ok);
    ASSERT_GE(result.count(Severity::error), 1) << result.log;
    const Diagnostic& error = result.diagnostics.front();
    EXPECT_EQ(error.code, "ptxas");
    EXPECT_GT(error.ptx_line, 0);
    EXPECT_EQ(error.file, "unit/k.cu");
    EXPECT_EQ(error.line, 3);
    EXPECT_NE(error.message.find("wgmma.fence"), std::string::npos) << error.message;
    EXPECT_NE(error.context.find("compile for sm_90a (arch=sm_90a"), std::string::npos) << error.context;
    EXPECT_TRUE(compile_with_nvrtc(request(
                    "__global__ void k(float* a) {\n    asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");\n}\n", "sm_90a"))
                    .ok);
}

// A kernel written for nvcc: nvcc's implicit includes give `uint`, INFINITY, NAN and M_PI, and a file
// may include the C headers for printf, fixed-width integers, limits and std:: math. NVRTC has none of
// them; kplay's stand-ins do (and agree with CCCL's own definitions when both are included).
TEST(NvrtcCompiler, WhatNvccsHostHeadersGiveAKernelCompiles) {
    const CompileResult result = compile_with_nvrtc(request(
        "#include <stdio.h>\n#include <stdint.h>\n#include <cstdint>\n#include <cstddef>\n#include <limits.h>\n"
        "#include <float.h>\n#include <cmath>\n#include <string.h>\n#include <stdlib.h>\n#include <assert.h>\n"
        "#include <cuda/std/cstdint>\n"
        "struct Pair { int a; float b; };\n"
        "__global__ void k(float* y, uint n, int64_t m, std::size_t s) {\n"
        "    uint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v[2];\n"
        "    memcpy(v, y, sizeof v);\n"
        "    y[i] = fminf(v[0], INFINITY) + (isnan(NAN) ? 1.0f : 0.0f) + float(M_PI) + std::sqrt(2.0f) + INT_MAX + FLT_EPSILON +\n"
        "           std::max(1, 2) + (uint32_t)m + s + offsetof(Pair, b) + (cuda::std::int64_t)UINT8_MAX;\n"
        "    printf(\"%d\\n\", (int)i);\n"
        "    assert(i < n);\n"
        "}\n",
        "sm_90"));
    EXPECT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.count(Severity::warning), 0) << result.log;
}

// CUDA 13 moved CCCL to include/cccl: cooperative groups and CUB compile with the toolkit's include folder
// alone, as under nvcc.
TEST(NvrtcCompiler, CooperativeGroupsAndCubCompile) {
    const CompileResult result = compile_with_nvrtc(request(
        "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n#include <cub/block/block_scan.cuh>\n"
        "namespace cg = cooperative_groups;\n"
        "__global__ void k(const float* x, float* y) {\n"
        "    auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
        "    const float sum = cg::reduce(tile, x[threadIdx.x], cg::plus<float>());\n"
        "    using Scan = cub::BlockScan<int, 128>;\n"
        "    __shared__ Scan::TempStorage temp;\n"
        "    int prefix = 0;\n"
        "    Scan(temp).InclusiveSum(int(sum), prefix);\n"
        "    y[threadIdx.x] = sum + prefix + INFINITY;\n"
        "}\n",
        "sm_90"));
    EXPECT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.count(Severity::warning), 0) << result.log;
}

TEST(NvrtcCompiler, DefinesReachTheSource) {
    CompileRequest r = request("extern \"C\" __global__ void k(float* a) { a[0] = VALUE; }\n");
    EXPECT_FALSE(compile_with_nvrtc(r).ok);
    r.options.defines.push_back({"VALUE", "3.0f"});
    EXPECT_TRUE(compile_with_nvrtc(r).ok);
}

TEST(NvrtcCompiler, UnknownArchitectureIsAnInputError) {
    EXPECT_NO_THROW(check_arch_supported("sm_90"));
    EXPECT_NO_THROW(check_arch_supported("compute_80"));
    try {
        check_arch_supported("sm_13");
        FAIL() << "expected an error";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("supports: "), std::string::npos);
    }
    EXPECT_THROW(check_arch_supported("banana"), InputError);
}
