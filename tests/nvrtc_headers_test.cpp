// Header folders and NVRTC options reaching compiles (no GPU needed): a CuTe-style header library that
// builds only with its folder (include=) and -default-device (nvrtc=), the user's folders (-I), options
// and folders refused by name, the cache key following a header's edit, the host-launching libraries
// (CUB's device-wide layer, Thrust) refused with what to use instead, and CUB's umbrella header.
#include <gtest/gtest.h>

#include "client/remote_bundle.hpp"
#include "compile/compile_cache.hpp"
#include "compile/cub_stand_in.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "kernel_file/include_dirs.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

namespace fs = std::filesystem;

fs::path mini_kernel() { return test::data_dir() / "cute_like" / "transpose_mini.cu"; }

std::string without(std::string text, const std::string& part) {
    const size_t at = text.find(part);
    EXPECT_NE(at, std::string::npos) << part;
    if (at != std::string::npos) text.erase(at, part.size());
    return text;
}

CompileFileResult compile_file(const fs::path& path, const std::optional<std::string>& source = std::nullopt,
                               std::vector<std::string> include_dirs = {}) {
    Engine engine(EngineConfig{{}, test::kernels_dir() / "include", default_engine_config().cuda_include_dir});
    CompileFileRequest request;
    request.path = path;
    request.source = source;
    request.want_ptx = true;
    request.include_dirs = std::move(include_dirs);
    return engine.compile_file(request);
}

bool log_mentions(const CompileResult& result, const std::string& text) {
    for (const Diagnostic& diagnostic : result.diagnostics)
        if (diagnostic.message.find(text) != std::string::npos) return true;
    return false;
}

CompileRequest plain_request(const std::string& source) {
    CompileRequest request;
    request.source = source;
    request.source_path = "unit/k.cu";
    request.options.arch = "compute_90";
    request.options.include_dirs = {default_engine_config().cuda_include_dir.string()};
    return request;
}

}  // namespace

TEST(NvrtcHeaders, ACuteStyleHeaderBuildsWithItsFolderAndDefaultDevice) {
    const CompileFileResult result = compile_file(mini_kernel());
    ASSERT_TRUE(result.input_error.empty()) << result.input_error;
    ASSERT_TRUE(result.spec) << result.spec_problem;
    EXPECT_TRUE(result.compile.ok) << result.compile.log;
    const std::vector<std::string>& used = result.compile.options_used;
    EXPECT_NE(std::find(used.begin(), used.end(), "--device-as-default-execution-space"), used.end());
    EXPECT_NE(std::find(used.begin(), used.end(), "-I" + (mini_kernel().parent_path() / "include").string()), used.end());
}

TEST(NvrtcHeaders, WithoutDefaultDeviceTheHeaderFailsClearly) {
    const std::string source = without(test::read_file(mini_kernel()), " nvrtc=-default-device");
    const CompileFileResult result = compile_file(mini_kernel(), source);
    ASSERT_TRUE(result.input_error.empty()) << result.input_error;
    EXPECT_FALSE(result.compile.ok);
    // NVRTC 13's own words name the option: "... host functions are not allowed in JIT mode. Consider
    // using -default-device flag ...".
    EXPECT_TRUE(log_mentions(result.compile, "host functions are not allowed in JIT mode")) << result.compile.log;
    EXPECT_TRUE(log_mentions(result.compile, "-default-device")) << result.compile.log;
}

TEST(NvrtcHeaders, WithoutItsFolderTheHeaderIsNotFoundAndTheUsersFolderServes) {
    const std::string source = without(test::read_file(mini_kernel()), " include=include");
    const CompileFileResult missing = compile_file(mini_kernel(), source);
    EXPECT_FALSE(missing.compile.ok);
    EXPECT_TRUE(log_mentions(missing.compile, "mini_tensor/layout.hpp")) << missing.compile.log;
    // The user's folder (kplay-cli -I, KPLAY_INCLUDE_PATH) in its place.
    const CompileFileResult found = compile_file(mini_kernel(), source, {(mini_kernel().parent_path() / "include").string()});
    EXPECT_TRUE(found.compile.ok) << found.compile.log;
}

TEST(NvrtcHeaders, RefusedOptionsAndMissingFoldersAreInputErrorsByName) {
    const std::string source = test::read_file(mini_kernel());
    std::string rdc = source;
    rdc.replace(rdc.find("nvrtc=-default-device"), 21, "nvrtc=-rdc=true");
    const CompileFileResult refused = compile_file(mini_kernel(), rdc);
    EXPECT_NE(refused.input_error.find("nvrtc=-rdc=true: kplay loads one compiled module"), std::string::npos) << refused.input_error;
    std::string missing = source;
    missing.replace(missing.find("include=include"), 15, "include=no_such_dir");
    const CompileFileResult absent = compile_file(mini_kernel(), missing);
    EXPECT_NE(absent.input_error.find("include=no_such_dir: no folder " + (mini_kernel().parent_path() / "no_such_dir").string()),
              std::string::npos)
        << absent.input_error;
}

TEST(NvrtcHeaders, TheIncludePathSettingSplitsOnColons) {
    const std::vector<fs::path> dirs = split_include_path("/a/b::/c/../d:");
    ASSERT_EQ(dirs.size(), 2u);
    EXPECT_EQ(dirs[0], fs::path("/a/b"));
    EXPECT_EQ(dirs[1], fs::path("/d"));
}

TEST(NvrtcHeaders, AHeaderEditInAnIncludeFolderChangesTheCacheKey) {
    test::TempDir dir;
    const fs::path header = dir.write("hdr/tile.cuh", "#define TILE 16\n");
    CompileRequest request = plain_request("#include <tile.cuh>\n__global__ void k(int* a) { a[0] = TILE; }\n");
    request.options.include_dirs.insert(request.options.include_dirs.begin(), header.parent_path().string());
    const CompileCache cache(dir.path() / "cache");
    const std::string before = cache.key_for(request);
    dir.write("hdr/tile.cuh", "#define TILE 32\n");
    EXPECT_NE(cache.key_for(request), before);
}

TEST(NvrtcHeaders, ThrustAndCubDeviceWideAreRefusedWithWhatToUseInstead) {
    const CompileResult thrust = compile_with_nvrtc(plain_request("#include <cuda/std/utility>\n#include <thrust/device_vector.h>\n"
                                                                  "__global__ void k(int* a) { a[0] = 1; }\n"));
    EXPECT_FALSE(thrust.ok);
    ASSERT_EQ(thrust.diagnostics.size(), 1u) << thrust.log;
    EXPECT_EQ(thrust.diagnostics[0].line, 2);
    EXPECT_NE(thrust.diagnostics[0].message.find("<thrust/device_vector.h> is Thrust"), std::string::npos);
    EXPECT_NE(thrust.diagnostics[0].message.find("CUDA runtime"), std::string::npos);
    EXPECT_NE(thrust.diagnostics[0].message.find("kplay-launch"), std::string::npos);

    const CompileResult reduce = compile_with_nvrtc(plain_request("#include <cub/device/device_reduce.cuh>\n__global__ void k(int* a) {}\n"));
    EXPECT_FALSE(reduce.ok);
    ASSERT_EQ(reduce.diagnostics.size(), 1u) << reduce.log;
    EXPECT_NE(reduce.diagnostics[0].message.find("cub::DeviceReduce"), std::string::npos);
    EXPECT_NE(reduce.diagnostics[0].message.find(cub_device_wide_advice()), std::string::npos) << reduce.diagnostics[0].message;
    EXPECT_NE(reduce.diagnostics[0].message.find("<cub/cub.cuh> gives the block and warp primitives"), std::string::npos);
}

// CUB's umbrella header, whose real text NVRTC refuses (its device-wide layer is host code): kplay's
// stand-in gives the block, warp, thread and iterator parts.
TEST(NvrtcHeaders, TheCubUmbrellaHeaderCompilesForBlockAndWarpPrimitives) {
    const CompileResult result = compile_with_nvrtc(plain_request(
        "#include <cub/cub.cuh>\n"
        "__global__ void k(int* a, float* f) {\n"
        "    using Reduce = cub::BlockReduce<int, 128>;\n"
        "    using WarpSum = cub::WarpReduce<float>;\n"
        "    using Sort = cub::BlockRadixSort<int, 128, 2>;\n"
        "    __shared__ typename Reduce::TempStorage reduce;\n"
        "    __shared__ typename WarpSum::TempStorage warps[4];\n"
        "    __shared__ typename Sort::TempStorage sort;\n"
        "    const int total = Reduce(reduce).Sum(a[threadIdx.x]);\n"
        "    f[threadIdx.x] = WarpSum(warps[threadIdx.x / 32]).Sum(f[threadIdx.x]);\n"
        "    int keys[2] = {a[threadIdx.x], total};\n"
        "    __syncthreads();\n"
        "    Sort(sort).Sort(keys);\n"
        "    cub::CacheModifiedInputIterator<cub::LOAD_LDG, int> in(a);\n"
        "    a[threadIdx.x] = keys[0] + keys[1] + in[threadIdx.x] + (int)sizeof(cub::DeviceReduce);\n"
        "}\n"));
    EXPECT_TRUE(result.ok) << result.log;
    EXPECT_EQ(result.count(Severity::error), 0) << result.log;
}

// A call of a device-wide algorithm is refused at the user's line, by name, with what to use instead,
// and nothing else is said about it.
TEST(NvrtcHeaders, ADeviceWideCallIsRefusedByNameAtItsLine) {
    const CompileResult result = compile_with_nvrtc(plain_request(
        "#include <cub/cub.cuh>\n"
        "__global__ void k(int* a, int n) {\n"
        "    size_t bytes = 0;\n"
        "    cudaError_t error = cub::DeviceReduce::Sum(nullptr, bytes, a, a + 1, n);\n"
        "    a[0] = (int)error;\n"
        "}\n"));
    EXPECT_FALSE(result.ok);
    ASSERT_EQ(result.count(Severity::error), 1) << result.log;
    const Diagnostic& error = result.diagnostics.front();
    EXPECT_EQ(error.file, "unit/k.cu");
    EXPECT_EQ(error.line, 4);
    EXPECT_EQ(error.column, 30);
    EXPECT_EQ(error.source_line, "    cudaError_t error = cub::DeviceReduce::Sum(nullptr, bytes, a, a + 1, n);");
    EXPECT_EQ(error.message.rfind("cub::DeviceReduce::Sum is CUB's device-wide layer: it launches kernels from the host", 0), 0u)
        << error.message;
    EXPECT_NE(error.message.find(cub_device_wide_advice()), std::string::npos) << error.message;
}

TEST(NvrtcHeaders, CubBlockPrimitivesStillCompile) {
    CompileRequest request = plain_request(
        "#include <cub/block/block_scan.cuh>\n"
        "__global__ void k(int* a) {\n"
        "    using Scan = cub::BlockScan<int, 128>;\n"
        "    __shared__ typename Scan::TempStorage temp;\n"
        "    int v = a[threadIdx.x];\n"
        "    Scan(temp).InclusiveSum(v, v);\n"
        "    a[threadIdx.x] = v;\n"
        "}\n");
    const CompileResult result = compile_with_nvrtc(request);
    EXPECT_TRUE(result.ok) << result.log;
}

// The CUB walks the GPU test runs (tests/gpu_cub_test.cpp) build for sm_90 through kplay's path, without
// a GPU: every form of every block and warp primitive, under <cub/cub.cuh>, within a block's 48 KiB of
// static shared memory.
TEST(NvrtcHeaders, TheCubWalksBuildForAGpu) {
    for (const char* walk : {"block_scan_walk", "block_reduce_walk", "block_io_walk", "block_radix_sort_walk", "block_histogram_walk",
                             "block_discontinuity_walk", "warp_walk"}) {
        SCOPED_TRACE(walk);
        const fs::path file = test::data_dir() / "cub" / (std::string(walk) + ".cu");
        CompileRequest request = plain_request(test::read_file(file));
        request.source_path = file.string();
        request.options.arch = "sm_90";
        request.name_expressions = {walk};
        const CompileResult result = compile_with_nvrtc(request);
        EXPECT_TRUE(result.ok) << result.log;
        EXPECT_EQ(result.lowered_names.count(walk), 1u);
    }
}

// Over --remote the host reads no path of the client's: the headers of the file's include= folders, and
// of the user's -I folders, travel with it.
TEST(NvrtcHeaders, IncludeFoldersTravelWithTheKernelOverSsh) {
    const std::string header = (mini_kernel().parent_path() / "include" / "mini_tensor" / "layout.hpp").string();
    const auto carries = [&](const nlohmann::json& files) {
        for (const auto& file : files)
            if (file.at("path") == header) return true;
        return false;
    };
    EXPECT_TRUE(carries(bundle_files(mini_kernel(), std::nullopt)));
    const std::string source = without(test::read_file(mini_kernel()), " include=include");
    EXPECT_FALSE(carries(bundle_files(mini_kernel(), source)));
    EXPECT_TRUE(carries(bundle_files(mini_kernel(), source, {(mini_kernel().parent_path() / "include").string()})));
}
