// On a GPU: every shipped kernel runs and matches the CPU reference at a regular and an irregular size,
// and wrong kernels or launches are caught with the right message.
#include <gtest/gtest.h>

#include "run/engine.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

Engine& engine() {
    // The emulated device's prelude too: declared tasks with a host reference or a reference kernel build it.
    static Engine instance(EngineConfig{{}, test::kernels_dir() / "include", default_engine_config().cuda_include_dir,
                                        default_engine_config().emu_include_dir});
    return instance;
}

RunRequest request_for(const std::filesystem::path& file, const std::string& size) {
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = size;
    request.warmup = 1;
    request.repeat = 3;
    request.measure_ceiling = false;
    return request;
}

void expect_passes(const RunRequest& request) {
    const RunReport report = engine().run(request);
    SCOPED_TRACE(request.kernel_path.string() + " at " + (request.inputs.size.empty() ? request.inputs.image_path : request.inputs.size));
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    EXPECT_TRUE(report.compile.is_cubin);
    EXPECT_GT(report.kernel_ms.median, 0);
    EXPECT_EQ(report.kernel_ms.count, 3);
}

}  // namespace

TEST(GpuKernels, GrayscaleKernelsAreCorrect) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const auto files = test::kernel_files("grayscale");
    ASSERT_GE(files.size(), 2u);
    for (const auto& file : files) {
        expect_passes(request_for(file, "1280x800"));
        expect_passes(request_for(file, "1001x999"));
        RunRequest photo = request_for(file, "");
        photo.inputs.image_path = (test::images_dir() / "grace_hopper.jpg").string();
        expect_passes(photo);
    }
}

TEST(GpuKernels, MatmulKernelsAreCorrect) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const auto files = test::kernel_files("matmul");
    ASSERT_GE(files.size(), 3u);
    for (const auto& file : files) {
        expect_passes(request_for(file, "512"));
        expect_passes(request_for(file, test::irregular_matmul_size(file)));
        if (test::loads_through_tma(file)) expect_passes(request_for(file, "4096"));  // Hopper's rungs at the bench size, checked in full
    }
}

// Hopper's features through the whole path: a cluster launch (cuLaunchKernelEx) whose blocks read their
// rank in it, and a TMA descriptor kplay builds over a buffer, at a regular, an irregular and a tiny size.
TEST(GpuHopper, AClusterLaunchGivesEachBlockItsRankInItsCluster) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const RunReport report = engine().run(request_for(test::data_dir() / "hopper/cluster_ranks.cu", ""));
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_EQ(report.launch.cluster.text(), "4,1,1");
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    EXPECT_GE(report.check.sizes.size(), 2u);
}

TEST(GpuHopper, TmaDescriptorsAreBuiltOverEachRunsBuffer) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const RunReport report = engine().run(request_for(test::data_dir() / "hopper/tma_copy.cu", ""));
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_EQ(report.compile.arch, "sm_90a");
    ASSERT_FALSE(report.arguments.empty());
    EXPECT_EQ(report.arguments[0].kind, "tensor map");
    EXPECT_EQ(report.arguments[0].value, "in 1000x996 f32, box 8x32, no swizzle");
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    EXPECT_GE(report.check.sizes.size(), 3u);
}

TEST(GpuHopper, ATargetTheDeviceCannotRunIsASentenceBeforeAnyCompile) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    const auto file = dir.write("matmul/k.cu",
                                "// kplay: task=matmul kernel=k arch=sm_100a\n"
                                "__global__ void k(float* a, float* b, float* c, int M, int N, int K) {}\n");
    const RunReport report = engine().run(request_for(file, "64"));
    EXPECT_EQ(report.stage, Stage::device);
    EXPECT_NE(report.error.find("k.cu: arch=sm_100a: sm_100a code uses that architecture's own instructions and runs only on compute "
                                "capability 10.0; this device has compute capability 9.0"),
              std::string::npos)
        << report.error;
    EXPECT_FALSE(report.compile.ok) << "nothing was compiled";
}

TEST(GpuKernels, LiteralOverrideChangesTileWidthAndStaysCorrect) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    RunRequest request = request_for(test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu", "300x200x100");
    request.arg_overrides = {{"tw", "32"}};
    const RunReport report = engine().run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_EQ(report.launch.block.x, 32);
    EXPECT_EQ(report.launch.dynamic_smem, 2 * 32 * 32 * 4);
    EXPECT_TRUE(report.check.passed) << report.check.summary;
}

TEST(GpuKernels, DynamicSmemBeyond48KiBUsesTheOptIn) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    RunRequest request = request_for(test::kernels_dir() / "matmul/02_tiled_dynamic_smem.cu", "256");
    request.smem = 100 * 1024;
    const RunReport report = engine().run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed);
}

TEST(GpuKernels, UnwrittenOutputFailsTheCheck) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    const auto file = dir.write("grayscale/skips_tail.cu",
                                "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i < n - 10) out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];\n}\n");
    const RunReport report = engine().run(request_for(file, "640x480"));
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_FALSE(report.check.passed);
    EXPECT_EQ(report.check.metric("unwritten"), 10);
}

TEST(GpuKernels, InvalidLaunchIsRefusedBeforeLaunching) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    RunRequest request = request_for(test::kernels_dir() / "matmul/01_seed_naive.cu", "256");
    request.block = std::vector<int64_t>{32, 64};
    const RunReport report = engine().run(request);
    EXPECT_EQ(report.stage, Stage::launch);
    EXPECT_NE(report.error.find("2048 threads"), std::string::npos) << report.error;
    EXPECT_NE(report.error.find("at most 1024"), std::string::npos) << report.error;
}

TEST(GpuKernels, WrongArgumentCountIsAMessage) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    const auto file = dir.write("matmul/k.cu",
                                "// kplay: task=matmul kernel=k args=a,b,c,M,N\n"
                                "__global__ void k(float* a, float* b, float* c, int M, int N, int K) {}\n");
    const RunReport report = engine().run(request_for(file, "64"));
    EXPECT_EQ(report.stage, Stage::launch);  // the plan binds the arguments: nothing is launched
    EXPECT_NE(report.error.find("takes 6 parameters but 5 arguments"), std::string::npos) << report.error;
}

// this_grid().sync() through a cooperative launch (cuLaunchKernelEx's cooperative attribute), and a grid
// larger than the GPU holds at once refused before launch with occupancy x SMs.
TEST(GpuCooperative, AGridSyncedSumPassesAndATooLargeGridIsRefused) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const EngineConfig defaults = default_engine_config();
    // The host reference's build reads cooperative_groups.h, whose CUDA 13 form includes CCCL's libcu++.
    Engine cooperative(EngineConfig{{}, defaults.cuda_include_dir / "cccl", defaults.cuda_include_dir, defaults.emu_include_dir});
    RunRequest request = request_for(test::data_dir() / "emu/cg_grid_sum.cu", "");
    RunReport report = cooperative.run(request);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error << "\n" << report.compile.log;
    EXPECT_TRUE(report.launch.cooperative);
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;

    request.grid = std::vector<int64_t>{1000000};
    request.check_test_sizes = false;
    report = cooperative.run(request);
    EXPECT_FALSE(report.ok());
    EXPECT_EQ(report.error_code, ErrorCode::cuda_cooperative_launch_too_large) << report.error;
    EXPECT_NE(report.error.find("SMs = "), std::string::npos) << report.error;
    EXPECT_NE(report.error.find("grid 1000000,1,1 has 1000000"), std::string::npos) << report.error;
}

// The shapes of today's kernels (tests/data/real/, tests/data/names/every_name.cu), as the emulated device
// runs them in tests/real_kernels_emulated_test.cpp: the same files, compiled by NVRTC and run on the GPU.
TEST(GpuKernels, TodaysKernelShapesRunAsTheirAuthorsMeant) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    for (const char* file : {"real/template_float_arg.cu", "real/alias_types.cu", "real/struct_defaults.cu", "real/pair_seed_tag.cu",
                             "real/spaces_and_sizes.cu", "real/namespaced.cu", "names/every_name.cu"})
        expect_passes(request_for(test::data_dir() / file, ""));
}
