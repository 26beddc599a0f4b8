// On a GPU: each CUB walk (tests/data/cub/*_walk.cu, every documented form of CUB's block and warp
// primitives) is compiled through kplay's NVRTC path, <cub/cub.cuh> stand-in included, launched on
// device 0 with the inputs the emulated device gets, and its outputs compared with the emulated device's
// element by element: ints exactly, floats (sums, which CUB adds in a tree) within rounding. Where the
// GPU and the emulated device differ, the first difference is named with its walk, slot and place.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "cub_walks.hpp"
#include "cuda/cuda_context.hpp"
#include "cuda/cuda_handles.hpp"
#include "cuda/device_query.hpp"
#include "cuda/driver.hpp"
#include "cuda/module.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

// The walk on device 0, with kplay's compiler and the CUDA toolkit's headers, as a kernel file is run.
test::CubWalkOutputs run_on_gpu(const test::CubWalk& walk) {
    test::CubWalkOutputs outputs;
    const DeviceInfo device = describe_device(0);
    PrimaryContext context(0);
    CompileRequest request;
    const std::filesystem::path file = test::data_dir() / "cub" / (walk.name + ".cu");
    request.source = test::read_file(file);
    request.source_path = file.string();
    request.name_expressions = {walk.name};
    request.options.arch = device.arch();
    request.options.include_dirs = {cuda_include_dir().string()};
    const CompileResult compiled = compile_with_nvrtc(request);
    if (!compiled.ok) {
        outputs.error = "did not compile:\n" + compiled.log;
        return outputs;
    }
    const Module module = Module::load(compiled.binary);
    const KernelFunction function = module.function(compiled.lowered_names.at(walk.name));
    const std::vector<int> ints = test::cub_walk_ints();
    const std::vector<float> floats = test::cub_walk_floats();
    outputs.ints.assign(walk.ints, test::kCubWalkPoison);
    outputs.floats.assign(walk.floats, test::cub_walk_float_poison());
    const DeviceBuffer in(ints.size() * 4), fin(floats.size() * 4), out(walk.ints * 4), fout(walk.floats * 4);
    in.upload(ints.data(), ints.size() * 4);
    fin.upload(floats.data(), floats.size() * 4);
    out.upload(outputs.ints.data(), walk.ints * 4);
    fout.upload(outputs.floats.data(), walk.floats * 4);
    CUdeviceptr pointers[] = {in.get(), fin.get(), out.get(), fout.get()};
    void* args[] = {&pointers[0], &pointers[1], &pointers[2], &pointers[3]};
    const Stream stream = Stream::create();
    KPLAY_CU(driver_api().cuLaunchKernel(function.get(), 1, 1, 1, walk.block[0], walk.block[1], walk.block[2], 0, stream.get(), args, nullptr));
    stream.synchronize();
    out.download(outputs.ints.data(), walk.ints * 4);
    fout.download(outputs.floats.data(), walk.floats * 4);
    return outputs;
}

bool same_float(float a, float b) {
    if (std::memcmp(&a, &b, sizeof a) == 0) return true;
    return std::fabs(a - b) <= 1e-3f + 1e-5f * std::fabs(b);
}

class GpuCub : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuCub, TheWalkMatchesTheEmulatedDeviceElementByElement) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    const test::CubWalk& walk = test::cub_walk(GetParam());
    const test::CubWalkOutputs gpu = run_on_gpu(walk);
    ASSERT_TRUE(gpu.error.empty()) << gpu.error;
    const std::vector<test::CubWalkOutputs> emulated = test::run_cub_walk_emulated(walk, {ThreadOrder::forward});
    ASSERT_TRUE(emulated.front().error.empty()) << emulated.front().error;
    const std::vector<int>& expected = emulated.front().ints;
    size_t written = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        written += gpu.ints[i] != test::kCubWalkPoison;
        ASSERT_EQ(gpu.ints[i], expected[i]) << walk.name << ": out[" << i << "] differs (on the emulated device " << expected[i]
                                            << ", on the GPU " << gpu.ints[i] << ")";
    }
    EXPECT_GT(written, 0u) << "the walk wrote nothing on the GPU";
    size_t bitwise_equal = 0;
    for (size_t i = 0; i < emulated.front().floats.size(); ++i) {
        const float a = gpu.floats[i], b = emulated.front().floats[i];
        bitwise_equal += std::memcmp(&a, &b, sizeof a) == 0;
        ASSERT_TRUE(same_float(a, b)) << walk.name << ": fout[" << i << "] differs (on the emulated device " << b << ", on the GPU " << a << ")";
    }
    // Not a requirement: how often a float sum came out bit for bit the same (CUB's order is its own).
    std::printf("%s: %zu ints equal; floats %zu of %zu bit for bit\n", walk.name.c_str(), expected.size(), bitwise_equal,
                emulated.front().floats.size());
}

INSTANTIATE_TEST_SUITE_P(Walks, GpuCub,
                         ::testing::Values("block_scan_walk", "block_reduce_walk", "block_io_walk", "block_radix_sort_walk",
                                           "block_histogram_walk", "block_discontinuity_walk", "warp_walk"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace kplay
