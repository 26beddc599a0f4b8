// Tasks a user declares in the kernel file, end to end on the emulated CPU device: a vector add, a sum
// reduction with atomics, a row softmax, f16 and in-place buffers, a trusted reference kernel; the
// checks that catch cheating and luck (an input written, an input ignored, edge sizes, `requires`);
// and references that crash, hang or reach for the system, each reported as the reference's fault.
#include <gtest/gtest.h>

#include <filesystem>

#include "run/engine.hpp"
#include "test_support.hpp"
#include "error_code_names.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

class UserTasks : public ::testing::Test {
protected:
    RunReport run(const std::string& name, const std::string& source, const std::string& size = "") {
        const fs::path file = dir_.write(name, source);
        RunRequest request;
        request.kernel_path = file;
        request.inputs.size = size;
        request.emulate = true;
        request.emulation_timeout_s = 30;
        request.reference_timeout_s = reference_timeout_;
        return engine_.run(request);
    }
    test::TempDir dir_;
    Engine engine_{[this] {
        EngineConfig config = default_engine_config();
        config.cache_dir = dir_.path() / "cache";
        return config;
    }()};
    double reference_timeout_ = 30;
};

const std::string kVectorAdd = test::vector_add_task("default=100000 test=1,1000,1025", "// kplay-cost: bytes=12*n ceiling=copy\n");

// The same task with another kernel body (and the same reference).
std::string vector_add_with(const std::string& body) {
    std::string source = kVectorAdd;
    const std::string original = "if (i < n) c[i] = a[i] + b[i];";
    source.replace(source.find(original), original.size(), body);
    return source;
}

TEST_F(UserTasks, AVectorAddPassesAtEverySize) {
    const RunReport report = run("vector_add.cu", kVectorAdd);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.task, "vector_add");
    EXPECT_EQ(report.sizes, "100000");
    ASSERT_EQ(report.check.buffers.size(), 1u);
    EXPECT_EQ(report.check.buffers[0].elements, 100000);
    EXPECT_EQ(report.check.reference, "host function kplay_reference (sandboxed)");
    // The three test sizes and a second seed, each checked in full.
    ASSERT_EQ(report.check.sizes.size(), 4u);
    EXPECT_EQ(report.check.sizes[0].sizes, "1");
    EXPECT_EQ(report.check.sizes[3].sizes, "1 (seed 2)");
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    EXPECT_DOUBLE_EQ(report.bytes, 12.0 * 100000);
    EXPECT_EQ(report.view.kind, OutputKind::series);
}

TEST_F(UserTasks, AKernelWithoutABoundsCheckFailsAtAnEdgeSize) {
    // At a size that is a multiple of the block no thread strays; at 100000 (390 blocks and 160) the
    // last block's extra threads read past the end, which the emulated device's guard page stops.
    const RunReport report = run("vector_add.cu", vector_add_with("c[i] = a[i] + b[i];"), "1024");
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed);
    const RunReport edges = run("vector_add.cu", vector_add_with("c[i] = a[i] + b[i];"));
    EXPECT_FALSE(edges.ok());
    EXPECT_EQ(edges.error_code, "CUDA_ERROR_ILLEGAL_ADDRESS");
    EXPECT_NE(edges.error.find("past the end of"), std::string::npos) << edges.error;
}

TEST_F(UserTasks, AKernelThatWritesItsInputIsFlagged) {
    const RunReport report = run("vector_add.cu", vector_add_with("if (i < n) { c[i] = a[i] + b[i]; const_cast<float*>(a)[i] = 0; }"));
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_FALSE(report.check.passed);
    EXPECT_EQ(report.check.overwritten_inputs, std::vector<std::string>{"a"});
    EXPECT_NE(report.check.summary.find("wrote to its input 'a'"), std::string::npos) << report.check.summary;
}

TEST_F(UserTasks, AKernelThatIgnoresItsInputIsFlagged) {
    const RunReport report = run("vector_add.cu", vector_add_with("if (i < n) c[i] = 0.25f;"));
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_FALSE(report.check.passed);
    EXPECT_EQ(report.check.input_independent, std::vector<std::string>{"c"});
}

TEST_F(UserTasks, ASumReductionWithAtomicsPasses) {
    const RunReport report = run("sum.cu", R"(// kplay-sizes: n default=20000 test=1,1000,1025
// kplay-buffer: x f32[n] in init=uniform(0,1)
// kplay-buffer: total f32[1] out init=zero check=rel:1e-6*sqrt(n),abs:1e-6
// kplay-cost: bytes=4*n ceiling=read-only
__global__ void block_sum(const float* x, float* total, int n) {
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* total, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i];
    *total = static_cast<float>(sum);
}
#endif
)");
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.view.kind, OutputKind::scalar);
    EXPECT_NEAR(report.check.buffers.at(0).first_bad.index, -1, 0);
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

TEST_F(UserTasks, ARowSoftmaxPasses) {
    const RunReport report = run("softmax.cu", R"(// kplay: block=64 grid=cdiv(R,64)
// kplay-sizes: R,C default=300x100 test=1x1,3x1000,33x17
// kplay-buffer: x f32[R*C] in init=normal(0,3)
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
// kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy
__global__ void softmax_rows(const float* x, float* y, int R, int C) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= R) return;
    const float* in = x + (long)row * C;
    float top = in[0];
    for (int j = 1; j < C; ++j) top = fmaxf(top, in[j]);
    float sum = 0;
    for (int j = 0; j < C; ++j) sum += expf(in[j] - top);
    for (int j = 0; j < C; ++j) y[(long)row * C + j] = expf(in[j] - top) / sum;
}
#ifdef KPLAY_REFERENCE
#include <cmath>
void kplay_reference(const float* x, float* y, int R, int C) {
    for (int r = 0; r < R; ++r) {
        double top = x[r * C];
        for (int j = 1; j < C; ++j) top = std::fmax(top, x[r * C + j]);
        double sum = 0;
        for (int j = 0; j < C; ++j) sum += std::exp(x[r * C + j] - top);
        for (int j = 0; j < C; ++j) y[r * C + j] = static_cast<float>(std::exp(x[r * C + j] - top) / sum);
    }
}
#endif
)");
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    EXPECT_EQ(report.view.kind, OutputKind::matrix);
    EXPECT_EQ(report.check.sizes.size(), 4u);
    EXPECT_DOUBLE_EQ(report.flops, 5.0 * 300 * 100);
}

TEST_F(UserTasks, HalfAndInPlaceBuffers) {
    const RunReport half = run("scale_half.cu", R"(// kplay-sizes: n default=4000 test=1,33
// kplay-buffer: x f16[n] in init=uniform(-2,2)
// kplay-buffer: y f16[n] out check=exact
#include <cuda_fp16.h>
__global__ void twice(const __half* x, __half* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2half(2.0f * __half2float(x[i]));
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const __half* x, __half* y, int n) {
    for (int i = 0; i < n; ++i) y[i] = __float2half(2.0f * __half2float(x[i]));
}
#endif
)");
    ASSERT_TRUE(half.ok()) << half.stage << ": " << half.error;
    EXPECT_TRUE(half.check.passed) << half.check.summary;

    const RunReport in_place = run("scale_in_place.cu", R"(// kplay-sizes: n default=5000 test=1,777
// kplay-buffer: v i32[n] inout init=randint(-100,100)
__global__ void negate(int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = -v[i];
}
#ifdef KPLAY_REFERENCE
void kplay_reference(int* v, int n) {
    for (int i = 0; i < n; ++i) v[i] = -v[i];
}
#endif
)");
    ASSERT_TRUE(in_place.ok()) << in_place.stage << ": " << in_place.error;
    EXPECT_TRUE(in_place.check.passed) << in_place.check.summary;  // each launch starts from the input again
}

TEST_F(UserTasks, ATrustedKernelCanBeTheReference) {
    dir_.write("naive.cu", "// kplay: grid=1 block=1\n__global__ void add_naive(const float* a, const float* b, float* c, int n) {\n"
                           "    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];\n}\n");
    std::string source = vector_add_with("if (i < n) c[i] = b[i] + a[i];");
    source = "// kplay: kernel=vector_add\n// kplay-task: reference=naive.cu:add_naive\n" +
             source.substr(0, source.find("#ifdef KPLAY_REFERENCE"));
    const RunReport report = run("vector_add.cu", source);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_NE(report.check.reference.find("trusted kernel add_naive"), std::string::npos) << report.check.reference;
}

// A reference kernel file is built with the header folders the kernel is: the kernel's include= (and
// the request's -I) and the reference file's own include=; an edit of such a header is a new reference.
TEST_F(UserTasks, AReferenceKernelFileGetsTheHeaderFolders) {
    dir_.write("hdr/add_op.cuh", "#pragma once\n__device__ inline float add_op(float x, float y) { return x + y; }\n");
    dir_.write("naive.cu", "// kplay: grid=1 block=1\n#include <add_op.cuh>\n"
                           "__global__ void add_naive(const float* a, const float* b, float* c, int n) {\n"
                           "    for (int i = 0; i < n; ++i) c[i] = add_op(a[i], b[i]);\n}\n");
    std::string source = vector_add_with("if (i < n) c[i] = b[i] + a[i];");
    source = source.substr(0, source.find("#ifdef KPLAY_REFERENCE"));
    const RunReport by_kernel = run("vector_add.cu", "// kplay: kernel=vector_add include=hdr\n// kplay-task: reference=naive.cu:add_naive\n" + source);
    ASSERT_TRUE(by_kernel.ok()) << by_kernel.stage << ": " << by_kernel.error;
    EXPECT_TRUE(by_kernel.check.passed) << by_kernel.check.summary;

    // The header changes: the reference is built again (it now computes a - b, which the kernel is not).
    dir_.write("hdr/add_op.cuh", "#pragma once\n__device__ inline float add_op(float x, float y) { return x - y; }\n");
    const RunReport edited = run("vector_add.cu", "// kplay: kernel=vector_add include=hdr\n// kplay-task: reference=naive.cu:add_naive\n" + source);
    ASSERT_TRUE(edited.ok()) << edited.stage << ": " << edited.error;
    EXPECT_FALSE(edited.check.passed) << edited.check.summary;

    // The reference file names the folder itself; the kernel does not need it.
    dir_.write("hdr/add_op.cuh", "#pragma once\n__device__ inline float add_op(float x, float y) { return x + y; }\n");
    dir_.write("naive.cu", "// kplay: grid=1 block=1 include=hdr\n" + test::read_file(dir_.path() / "naive.cu").substr(25));
    const RunReport by_reference = run("vector_add.cu", "// kplay: kernel=vector_add\n// kplay-task: reference=naive.cu:add_naive\n" + source);
    ASSERT_TRUE(by_reference.ok()) << by_reference.stage << ": " << by_reference.error;
    EXPECT_TRUE(by_reference.check.passed) << by_reference.check.summary;

    // Without either, the reference's own error names the header.
    dir_.write("naive.cu", "// kplay: grid=1 block=1\n" + test::read_file(dir_.path() / "naive.cu").substr(37));
    const RunReport missing = run("vector_add.cu", "// kplay: kernel=vector_add\n// kplay-task: reference=naive.cu:add_naive\n" + source);
    EXPECT_EQ(missing.stage, Stage::reference);
    EXPECT_NE(missing.error.find("add_op.cuh"), std::string::npos) << missing.error;
}

// The CUB BlockScan task of the compile benchmark and the compile server's GPU test is right at every size.
TEST_F(UserTasks, TheCubBlockScanTaskPasses) {
    const RunReport report = run("block_scan_sums.cu", test::read_file(test::data_dir() / "cub" / "block_scan_sums.cu"));
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

TEST_F(UserTasks, RequiresSkipsTheSizesItRulesOut) {
    const RunReport report = run("vector_add.cu", "// kplay: requires=n%4==0\n" + std::string(kVectorAdd));
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    ASSERT_GE(report.check.sizes.size(), 3u);
    EXPECT_TRUE(report.check.sizes[0].skipped);  // n = 1
    EXPECT_NE(report.check.sizes[0].summary.find("requires n%4==0"), std::string::npos) << report.check.sizes[0].summary;
    EXPECT_FALSE(report.check.sizes[1].skipped);  // n = 1000
    EXPECT_TRUE(report.check.sizes[2].skipped);   // n = 1025
    const RunReport refused = run("vector_add.cu", "// kplay: requires=n%4==0\n" + std::string(kVectorAdd), "1001");
    EXPECT_EQ(refused.stage, Stage::launch);
    EXPECT_NE(refused.error.find("this kernel requires n%4==0"), std::string::npos) << refused.error;
}

// A reference's faults are the reference's: reported before any kernel runs.
std::string vector_add_reference(const std::string& body) {
    std::string source = kVectorAdd;
    const std::string original = "for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];";
    source.replace(source.find(original), original.size(), body);
    return source;
}

TEST_F(UserTasks, AReferenceThatSegfaultsIsReportedAsTheReferences) {
    const RunReport report = run("vector_add.cu", vector_add_reference("for (int i = 0; i <= n; ++i) c[i] = a[i] + b[i];"));
    EXPECT_EQ(report.stage, Stage::reference);
    // It reads a[n] before it writes c[n]: the guard page after 'a' stops it, at its line.
    const std::string where = dir_.path().filename().string() + "/vector_add.cu:12";
    EXPECT_EQ(report.error, "The host reference kplay_reference failed: the reference read 1 element past the end of 'a' (100000 floats) at " +
                                where)
        << report.error;
    EXPECT_EQ(report.error_line, 12);
    EXPECT_EQ(report.kernel_ms.count, 0);  // nothing was launched
}

TEST_F(UserTasks, AReferenceThatLoopsForeverIsStopped) {
    reference_timeout_ = 2;
    const RunReport report = run("vector_add.cu", vector_add_reference("for (volatile int i = 0; i < 1; i *= 1) {}"));
    EXPECT_EQ(report.stage, Stage::reference);
    EXPECT_EQ(report.error_code, "KPLAY_TIMEOUT");
    EXPECT_NE(report.error.find("did not finish within 2 s and was stopped"), std::string::npos) << report.error;
}

TEST_F(UserTasks, AReferenceThatCallsSystemIsRefused) {
    const fs::path marker = dir_.path() / "reached";
    std::string source = vector_add_reference("system(\"touch " + marker.string() + "\");");
    source.replace(source.find("#ifdef KPLAY_REFERENCE\n"), 23, "#ifdef KPLAY_REFERENCE\n#include <cstdlib>\n");
    const RunReport report = run("vector_add.cu", source);
    EXPECT_EQ(report.stage, Stage::reference);
    EXPECT_NE(report.error.find("refused to load the host reference: it calls 'system'"), std::string::npos) << report.error;
    EXPECT_FALSE(fs::exists(marker));
}

TEST_F(UserTasks, AMissingReferenceStopsAtTheSpec) {
    const std::string source = std::string(kVectorAdd).substr(0, std::string(kVectorAdd).find("#ifdef"));
    const RunReport report = run("vector_add.cu", source);
    EXPECT_EQ(report.stage, Stage::spec);
    EXPECT_NE(report.error.find("no reference for task vector_add"), std::string::npos) << report.error;
}

// A ladder's steps share one reference.h, included under KPLAY_REFERENCE: it is found, checked and
// built from the header, and a change to the header is a change to the reference (not served from
// the cache of the old one).
TEST_F(UserTasks, AReferenceInAnIncludedHeaderServesTheStep) {
    const std::string reference = "void kplay_reference(const float* a, const float* b, float* c, int n) {\n"
                                  "    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];\n}\n";
    dir_.write("reference.h", reference);
    std::string source = kVectorAdd.substr(0, kVectorAdd.find("#ifdef KPLAY_REFERENCE"));
    source += "#ifdef KPLAY_REFERENCE\n#include \"reference.h\"  // the ladder's one reference\n#endif\n";
    const RunReport good = run("vector_add.cu", source);
    ASSERT_TRUE(good.ok()) << good.stage << ": " << good.error;
    EXPECT_TRUE(good.check.passed) << good.check.summary;

    // The header now computes something else: the step fails against it.
    std::string wrong = reference;
    wrong.replace(wrong.find("a[i] + b[i]"), 11, "a[i] - b[i]");
    dir_.write("reference.h", wrong);
    const RunReport changed = run("vector_add.cu", source);
    ASSERT_TRUE(changed.ok()) << changed.error;
    EXPECT_FALSE(changed.check.passed);

    // A reference header with other parameters is named with its own file and line.
    dir_.write("reference.h", "\n" + std::string("void kplay_reference(const float* a, float* c, int n) {}\n"));
    const RunReport mismatch = run("vector_add.cu", source);
    EXPECT_EQ(mismatch.stage, Stage::spec);
    EXPECT_NE(mismatch.error.find("reference.h:2: the reference kplay_reference takes 3 parameters"), std::string::npos) << mismatch.error;

    fs::remove(dir_.path() / "reference.h");
    const RunReport missing = run("vector_add.cu", source);
    EXPECT_EQ(missing.stage, Stage::spec);
    EXPECT_NE(missing.error.find("vector_add.cu:"), std::string::npos) << missing.error;
    EXPECT_NE(missing.error.find("\"reference.h\", which is not a file"), std::string::npos) << missing.error;
}

// Steps may share device code through a header next to the file: the kernel compiles with it, and the
// host reference's build blanks the header's device bodies like the file's own (they use CUDA
// built-ins a host compiler does not have).
TEST_F(UserTasks, AHeaderOfDeviceCodeNextToTheFileServesTheKernelAndNotTheReference) {
    dir_.write("block_total.cuh", R"(#pragma once
__device__ float block_total(float v) {
    __shared__ float s[256];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = 128; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    return s[0];
}
)");
    const std::string source = R"(// kplay: block=256 requires=block_x==256
// kplay-sizes: n default=10000 test=1,1025
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: total f32[1] out init=zero check=abs:1e-6*n+1e-6
#include "block_total.cuh"
#include "block_total.cuh"  // twice: expanded once, as #pragma once says
__global__ void sum(const float* x, float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float t = block_total(i < n ? x[i] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(total, t);
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* total, int n) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += x[i];
    *total = static_cast<float>(s);
}
#endif
)";
    const RunReport report = run("sum.cu", source);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
}

// A sum in two launches: block sums into scratch, then one block adds them. The run launches both,
// times them as one and checks the result; a second launch that drops a block sum fails.
const std::string kTwoPass = R"(// kplay: kernel=partial_sums block=256
// kplay-sizes: n default=100000 test=1,1000,1025,70000
// kplay-buffer: x f32[n] in init=uniform(-1,1)
// kplay-buffer: partial f32[cdiv(n,256)] scratch
// kplay-buffer: total f32[1] out check=abs:1e-6*n+1e-6
// kplay-cost: bytes=4*n ceiling=read-only
// kplay-launch: sum_partials grid=1 args=partial,total,grid_x
__global__ void partial_sums(const float* x, float* partial, float* total, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int k = 128; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}
__global__ void sum_partials(const float* partial, float* total, int count) {
    __shared__ float s[256];
    float v = 0;
    for (int i = threadIdx.x; i < count; i += 256) v += partial[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = 128; k > 0; k /= 2) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) *total = s[0];
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* partial, float* total, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += x[i];
    *total = static_cast<float>(sum);
}
#endif
)";

TEST_F(UserTasks, SeveralLaunchesRunInOrderAndAreCheckedAsOne) {
    const RunReport report = run("two_pass.cu", kTwoPass);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    ASSERT_EQ(report.following.size(), 1u);
    EXPECT_EQ(report.following[0].kernel, "sum_partials");
    EXPECT_EQ(report.following[0].launch.grid.x, 1);
    EXPECT_EQ(report.launch.grid.x, 391);  // cdiv(100000, 256): the count the second launch was given
    EXPECT_EQ(report.check.sizes.size(), 5u);
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;

    // The second launch misses the last block sum: the sum is off at every size of more than one block.
    std::string dropped = kTwoPass;
    dropped.replace(dropped.find("args=partial,total,grid_x"), 25, "args=partial,total,grid_x-1");
    const RunReport wrong = run("two_pass.cu", dropped);
    ASSERT_TRUE(wrong.ok()) << wrong.error;
    EXPECT_FALSE(wrong.check.passed);

    // A scratch buffer is poisoned: a second launch that reads a block sum nobody wrote adds a NaN,
    // whose payload (the poison's) reaches the output, so it fails as unwritten or NaN.
    std::string unwritten = kTwoPass;
    unwritten.replace(unwritten.find("args=partial,total,grid_x"), 25, "args=partial,total,grid_x+1");
    unwritten.replace(unwritten.find("partial f32[cdiv(n,256)]"), 24, "partial f32[cdiv(n,256)+1]");
    const RunReport poisoned = run("two_pass.cu", unwritten);
    ASSERT_TRUE(poisoned.ok()) << poisoned.error;
    EXPECT_FALSE(poisoned.check.passed);
    EXPECT_GT(poisoned.check.metric("nan_inf") + poisoned.check.metric("unwritten"), 0) << poisoned.check.summary;

    // A bad expression in a later launch names its line.
    std::string bad = kTwoPass;
    bad.replace(bad.find("grid=1 args"), 6, "grid=q ");
    const RunReport refused = run("two_pass.cu", bad);
    EXPECT_EQ(refused.stage, Stage::launch);
    EXPECT_NE(refused.error.find("two_pass.cu:7: the launch of sum_partials"), std::string::npos) << refused.error;
}

// An interleaved RGB output (shape=h,w,3) is shown in colour, and a wrong byte is named by its
// pixel and channel.
TEST_F(UserTasks, AnInterleavedImageOutputIsShownInColour) {
    const std::string source = R"(// kplay-sizes: w,h default=40x30 test=1x1,3x5
// kplay-buffer: in u8[3*w*h] in init=image(interleaved)
// kplay-buffer: out u8[3*w*h] out shape=h,w,3 check=exact
__global__ void invert(const unsigned char* in, unsigned char* out, int w, int h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 3 * w * h) out[i] = i == 3 * (2 * w + 5) + 1 ? 0 : 255 - in[i];
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const unsigned char* in, unsigned char* out, int w, int h) {
    for (int i = 0; i < 3 * w * h; ++i) out[i] = 255 - in[i];
}
#endif
)";
    RunRequest request;
    request.kernel_path = dir_.write("invert.cu", source);
    request.emulate = true;
    request.keep_outputs = true;
    const RunReport report = engine_.run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_FALSE(report.check.passed);
    EXPECT_EQ(report.view.kind, OutputKind::image);
    EXPECT_EQ(report.view.channels, 3);
    EXPECT_EQ(report.view.width, 40);
    EXPECT_EQ(report.view.height, 30);
    EXPECT_EQ(report.view.output.size(), 3u * 40 * 30);
    EXPECT_EQ(report.view.map.size(), 40u * 30);  // one difference per pixel
    EXPECT_EQ(report.view.input.size(), 3u * 40 * 30);  // the input as planes, for the window
    EXPECT_NE(report.check.first_bad.find("pixel (x=5, y=2) green"), std::string::npos) << report.check.first_bad;
}

// --init fills an input another way for one run (a histogram on uniform bytes instead of its image).
TEST_F(UserTasks, AnInitOverrideReplacesAnInputsInitForOneRun) {
    RunRequest request;
    request.kernel_path = dir_.write("vector_add.cu", kVectorAdd);
    request.emulate = true;
    request.check_test_sizes = false;
    request.init_overrides = {{"a", "constant(2)"}, {"b", "constant(3)"}};
    request.keep_outputs = true;
    const RunReport report = engine_.run(request);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed);
    ASSERT_FALSE(report.view.series.got_min.empty());
    EXPECT_EQ(report.view.series.got_min[0], 5.0f);

    request.init_overrides = {{"c", "constant(1)"}};
    const RunReport refused = engine_.run(request);
    EXPECT_EQ(refused.stage, Stage::spec);
    EXPECT_NE(refused.error.find("--init c=constant(1): task vector_add has no input named 'c' (its inputs: a, b)"), std::string::npos)
        << refused.error;
}

}  // namespace
}  // namespace kplay
