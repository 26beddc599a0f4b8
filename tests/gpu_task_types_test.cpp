// README's narrow-type and several-launch examples on a GPU: the bf16 GEMV (with the 4096x4096 test
// size a GPU checks), the fp8 dequantisation, the three-kernel layernorm and the zeros=ok input, each
// correct at its default size and every test size; and a bf16 GEMM timed against cuBLAS's bf16 GEMM.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

class GpuTaskTypes : public ::testing::TestWithParam<std::string> {
protected:
    static Engine& engine() {
        static test::TempDir cache;
        static Engine instance([] {
            EngineConfig config = default_engine_config();
            config.cache_dir = cache.path();
            return config;
        }());
        return instance;
    }
    static RunReport run(const std::string& name, const std::string& source, bool ceiling) {
        static test::TempDir dir;
        RunRequest request;
        request.kernel_path = dir.write(name, source);
        request.warmup = 1;
        request.repeat = 3;
        request.measure_ceiling = ceiling;
        return engine().run(request);
    }
};

TEST_P(GpuTaskTypes, ReadmeExampleIsCorrectAtEverySize) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const std::string source = test::readme_example(GetParam());
    ASSERT_FALSE(source.empty()) << GetParam();
    const RunReport report = run(GetParam(), source, false);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_FALSE(report.emulated);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    if (GetParam() == "gemv_bf16.cu") {  // test= on a GPU, not test-cpu=
        ASSERT_EQ(report.check.sizes.size(), 4u);
        EXPECT_EQ(report.check.sizes[2].sizes, "4096x4096");
    }
}

INSTANTIATE_TEST_SUITE_P(Readme, GpuTaskTypes,
                         ::testing::Values("gemv_bf16.cu", "dequant_fp8.cu", "layernorm_three_kernels.cu", "cross_entropy.cu"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param.substr(0, info.param.find('.'));
                             return name;
                         });

// C = A B in bf16 with float accumulation, one thread per element: far below cuBLAS's tensor cores,
// but the verdict names cuBLAS's bf16 GEMM, measured at the same sizes.
const std::string kGemmBf16 = R"(// kplay-sizes: M,N,K default=1024x1024x1024 test=1x1x1,33x17x29
// kplay-buffer: a bf16[M*K] in init=uniform(-1,1) shape=M,K
// kplay-buffer: b bf16[K*N] in init=uniform(-1,1) shape=K,N
// kplay-buffer: c f32[M*N] out shape=M,N check=rel:1e-4,abs:1e-4*sqrt(K)
// kplay-cost: bytes=2*M*K+2*K*N+4*M*N flops=2*M*N*K ceiling=cublas gemm=a,b,c,M,N,K
// kplay: launch=2d block=16,16
#include <cuda_bf16.h>
__global__ void gemm_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int M, int N, int K) {
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += __bfloat162float(a[(size_t)row * K + k]) * __bfloat162float(b[(size_t)k * N + col]);
    c[(size_t)row * N + col] = sum;
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int M, int N, int K) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double sum = 0;
            for (int k = 0; k < K; ++k) sum += (double)__bfloat162float(a[(size_t)i * K + k]) * __bfloat162float(b[(size_t)k * N + j]);
            c[(size_t)i * N + j] = (float)sum;
        }
}
#endif
)";

TEST(GpuTaskTypesCeiling, ABf16GemmIsMeasuredAgainstCublasBf16) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    Engine engine([&] {
        EngineConfig config = default_engine_config();
        config.cache_dir = dir.path() / "cache";
        return config;
    }());
    RunRequest request;
    request.kernel_path = dir.write("gemm_bf16.cu", kGemmBf16);
    request.warmup = 1;
    request.repeat = 3;
    const RunReport report = engine.run(request);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.ceiling.name, "cuBLAS bf16");
    EXPECT_GT(report.ceiling.gflops, 0);
    EXPECT_NE(report.verdict.find("of cuBLAS bf16"), std::string::npos) << report.verdict;
}

}  // namespace
}  // namespace kplay
