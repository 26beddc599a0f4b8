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
