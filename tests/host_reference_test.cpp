// Host references: a kernel file's plain C++ reference built with the host compiler and the standard
// library, and run once in a sandboxed process. Its results, its parameter table, its progress, and
// each defence against a hostile reference on its own. Runs everywhere (no GPU needed).
#include "reference/host_reference.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>

#include "base/error.hpp"
#include "base/install_paths.hpp"
#include "emu/emulated_launch.hpp"
#include "emu/guarded_memory.hpp"
#include "reference/reference_source.hpp"
#include "kernel_file/source_scan.hpp"
#include "test_support.hpp"
#include "error_code_names.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

// Writes `source` to emu/ref.cu in a fresh folder and builds its reference there.
class ReferenceHarness {
public:
    explicit ReferenceHarness(const std::string& source, bool check_symbols = true,
                              const std::string& function = "kplay_reference") {
        request_.source = source;
        request_.source_path = dir_.write("emu/ref.cu", source).string();
        request_.function = function;
        request_.include_dirs = {(test::kernels_dir() / "include").string()};
        request_.emu_include_dir = emulated_include_dir();
        request_.cache_dir = dir_.path() / "cache";
        request_.check_symbols = check_symbols;
    }
    HostReferenceObject build() {
        object_ = build_host_reference(request_);
        return object_;
    }
    const fs::path& dir() const { return dir_.path(); }
    template <class T>
    T* buffer(const std::string& name, size_t count, T fill = T()) {
        buffers_.emplace_back(count * sizeof(T));
        T* data = reinterpret_cast<T*>(buffers_.back().data());
        for (size_t i = 0; i < count; ++i) data[i] = fill;
        labels_.push_back({name, sizeof(T) == 4 ? "float" : "element", sizeof(T), reinterpret_cast<uintptr_t>(data),
                           count * sizeof(T), buffers_.back().mapping_begin(), buffers_.back().mapping_end()});
        return data;
    }
    EmulatedLaunchResult call(std::vector<void*> args, double timeout_s = 20, bool sandbox = true,
                              std::function<void(double)> progress = {}) {
        EmulatedCallRequest request;
        request.shared_object = object_.shared_object;
        request.entry_symbol = host_reference_entry_symbol();
        request.bind_symbol = host_reference_bind_symbol();
        request.args = std::move(args);
        request.buffers = labels_;
        request.timeout_s = timeout_s;
        request.sandbox = sandbox;
        request.progress = std::move(progress);
        return run_emulated_call(request);
    }

private:
    test::TempDir dir_;
    HostReferenceBuildRequest request_;
    HostReferenceObject object_;
    std::vector<GuardedBuffer> buffers_;
    std::vector<BufferLabel> labels_;
};

// The InputError a build throws, or "" when it succeeds.
std::string refusal(ReferenceHarness& harness) {
    try {
        const HostReferenceObject object = harness.build();
        EXPECT_TRUE(object.ok) << object.diagnostics;
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

// A file with a CUDA kernel that uses what a host compiler has never heard of, and a reference beside it.
const char* kSumOfSquares = R"(#include "kplay.cuh"
#include <cuda_fp16.h>
__host__ __device__ inline double square(double v) { return v * v; }
__device__ int blocks_done;
extern __shared__ float partial[];
__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}
__global__ void __launch_bounds__(256) sum_squares(const float* __restrict__ x, double* out, float* rounded, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? x[i] * x[i] : 0.0f;
    __syncthreads();
    const float v = warp_sum(partial[threadIdx.x]);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, (double)v);
    if (threadIdx.x == 0) atomicAdd(&blocks_done, 1);
    if (i < n) rounded[i] = __half2float(__float2half(x[i]));
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, double* out, float* rounded, int n) {
    double total = 0;
    for (int i = 0; i < n; ++i) total += square(x[i]);
    out[0] = total;
    for (int i = 0; i < n; ++i) rounded[i] = __half2float(__float2half(x[i]));
    out[1] = cdiv(n, 256);
}
#endif
)";

TEST(HostReference, BuildsBesideADeviceKernelAndComputesTheRightNumbers) {
    ReferenceHarness harness(kSumOfSquares);
    const HostReferenceObject object = harness.build();
    ASSERT_TRUE(object.ok) << object.diagnostics;
    EXPECT_EQ(object.param_sizes, (std::vector<size_t>{8, 8, 8, 4}));
    const int n = 1000;
    float* x = harness.buffer<float>("x", n);
    for (int i = 0; i < n; ++i) x[i] = 0.1f * static_cast<float>(i % 17) - 0.5f;
    double* out = harness.buffer<double>("out", 2, -1.0);
    float* rounded = harness.buffer<float>("rounded", n, -1.0f);
    int count = n;
    const EmulatedLaunchResult result = harness.call({&x, &out, &rounded, &count});
    ASSERT_TRUE(result.ok) << result.error;
    double expected = 0;
    for (int i = 0; i < n; ++i) expected += static_cast<double>(x[i]) * x[i];
    EXPECT_EQ(out[0], expected);
    EXPECT_EQ(out[1], 4.0);
    EXPECT_EQ(rounded[6], 0.0999755859375f) << "0.1 rounded to binary16";  // x[6] = 0.6 - 0.5
    EXPECT_GE(result.kernel_ms, 0.0);
}

TEST(HostReference, StandardContainersAndAlgorithmsWorkInsideTheSandbox) {
    ReferenceHarness harness(R"(
__noinline__ __device__ int load(const int* x) { return x[threadIdx.x]; }
__global__ void k(const int* x, int* sorted, double* stats, int n) { sorted[threadIdx.x] = load(x); }
#ifdef KPLAY_REFERENCE
// libstdc++ 13 and later write __attribute__((__noinline__)) in <algorithm>; so does this line, on any version.
__attribute__((__noinline__)) static double quarter(double v) { return v / 4; }
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>
void kplay_reference(const int* x, int* sorted, double* stats, int n) {
    std::vector<int> values(x, x + n);
    std::sort(values.begin(), values.end());
    std::copy(values.begin(), values.end(), sorted);
    std::map<int, int> counts;
    std::unordered_map<int, double> sums;
    for (int v : values) {
        ++counts[v];
        sums[v % 3] += v;
    }
    stats[0] = static_cast<double>(counts.size());
    stats[1] = counts.rbegin()->second;
    stats[2] = sums[1];
    const std::string label = "n=" + std::to_string(n);
    stats[3] = static_cast<double>(label.size());
    try {
        values.at(static_cast<size_t>(n));
    } catch (const std::out_of_range&) {
        stats[4] = 1;
    }
    std::vector<std::vector<double>> big(1000, std::vector<double>(1000, 0.5));  // 8 MB: mmap under the filter
    stats[5] = big[999][999] * 4 * quarter(4);
}
#endif
)");
    const HostReferenceObject object = harness.build();
    ASSERT_TRUE(object.ok) << object.diagnostics;
    const int n = 500;
    int* x = harness.buffer<int>("x", n);
    for (int i = 0; i < n; ++i) x[i] = (i * 37) % 101;
    int* sorted = harness.buffer<int>("sorted", n, -1);
    double* stats = harness.buffer<double>("stats", 6, 0.0);
    int count = n;
    const EmulatedLaunchResult result = harness.call({&x, &sorted, &stats, &count});
    ASSERT_TRUE(result.ok) << result.error;
    std::vector<int> expected(x, x + n);
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(std::vector<int>(sorted, sorted + n), expected);
    std::map<int, int> counts;
    double sum_of_ones = 0;
    for (int v : expected) {
        ++counts[v];
        if (v % 3 == 1) sum_of_ones += v;
    }
    EXPECT_EQ(stats[0], static_cast<double>(counts.size()));
    EXPECT_EQ(stats[1], counts.rbegin()->second);
    EXPECT_EQ(stats[2], sum_of_ones);
    EXPECT_EQ(stats[3], 5.0);  // "n=500"
    EXPECT_EQ(stats[4], 1.0) << "the exception was not caught inside the reference";
    EXPECT_EQ(stats[5], 2.0);
}

TEST(HostReference, ParameterSizesFollowTheFunction) {
    ReferenceHarness harness(R"(
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n, double scale, char flag, const uchar4* pixels, float2 shift) {}
#endif
)");
    const HostReferenceObject object = harness.build();
    ASSERT_TRUE(object.ok) << object.diagnostics;
    EXPECT_EQ(object.param_sizes, (std::vector<size_t>{8, 8, 4, 8, 1, 8, 8}));
    EXPECT_FALSE(object.cache_hit);
    const HostReferenceObject again = harness.build();
    EXPECT_TRUE(again.cache_hit);
    EXPECT_EQ(again.param_sizes, object.param_sizes);
}

TEST(HostReference, ProgressReachesTheCaller) {
    ReferenceHarness harness(R"(
#ifdef KPLAY_REFERENCE
void kplay_reference(double* y, int steps) {
    volatile double sink = 0;
    for (int step = 1; step <= steps; ++step) {
        for (int i = 0; i < 2000000; ++i) sink = sink + 1e-9 * i;
        kplay_progress(static_cast<double>(step) / steps);
    }
    kplay_progress(7.0);  // clamped to 1
    y[0] = sink;
}
#endif
)");
    ASSERT_TRUE(harness.build().ok);
    double* y = harness.buffer<double>("y", 1);
    int steps = 20;
    std::vector<double> seen;
    const EmulatedLaunchResult result =
        harness.call({&y, &steps}, 20, true, [&](double fraction) { seen.push_back(fraction); });
    ASSERT_TRUE(result.ok) << result.error;
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back(), 1.0);
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    for (double fraction : seen) EXPECT_TRUE(fraction > 0 && fraction <= 1) << fraction;
}

// ---- a reference that fails: the message names the buffer, the line, the cause --------------------

TEST(HostReference, AWritePastTheEndNamesTheBufferAndTheLine) {
    ReferenceHarness harness(R"(#ifdef KPLAY_REFERENCE
void kplay_reference(const float* x, float* y, int n) {
    for (int i = 0; i <= n; ++i)
        y[i] = x[i < n ? i : 0] * 2.0f;
}
#endif
)");
    ASSERT_TRUE(harness.build().ok);
    const int n = 1000;
    float* x = harness.buffer<float>("x", n, 1.0f);
    float* y = harness.buffer<float>("y", n);
    int count = n;
    const EmulatedLaunchResult result = harness.call({&x, &y, &count});
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error_code, "KPLAY_REFERENCE_FAILED");
    EXPECT_EQ(result.error, "the reference wrote 1 element past the end of 'y' (1000 floats) at emu/ref.cu:4");
    EXPECT_EQ(result.line, 4);
}

TEST(HostReference, ANullWriteAndADeepRecursionAreNamed) {
    ReferenceHarness harness(R"(#ifdef KPLAY_REFERENCE
int depth(int n) {
    volatile char pad[4096];
    pad[0] = static_cast<char>(n);
    return n == 0 ? 0 : depth(n - 1) + pad[0];
}
void kplay_reference(float* y, int mode) {
    float* target = mode == 0 ? nullptr : y;
    if (mode == 0) target[3] = 1.0f;
    else y[0] = static_cast<float>(depth(1 << 30));
}
#endif
)");
    ASSERT_TRUE(harness.build().ok);
    float* y = harness.buffer<float>("y", 4);
    int mode = 0;
    const EmulatedLaunchResult null_write = harness.call({&y, &mode});
    EXPECT_EQ(null_write.error_code, "KPLAY_REFERENCE_FAILED");
    EXPECT_EQ(null_write.error, "the reference wrote through a null pointer (address 0xc) at emu/ref.cu:9");
    mode = 1;
    const EmulatedLaunchResult recursion = harness.call({&y, &mode});
    EXPECT_EQ(recursion.error_code, "KPLAY_REFERENCE_FAILED");
    EXPECT_NE(recursion.error.find("(a wild pointer, or a stack overflow: deep recursion or large local arrays)"),
              std::string::npos)
        << recursion.error;
}

TEST(HostReference, AnEndlessLoopIsStoppedByTheTimeout) {
    ReferenceHarness harness(R"(#ifdef KPLAY_REFERENCE
void kplay_reference(float* y) {
    volatile int spin = 1;
    while (spin) {}
    y[0] = 1;
}
#endif
)");
    ASSERT_TRUE(harness.build().ok);
    float* y = harness.buffer<float>("y", 1);
    const auto start = std::chrono::steady_clock::now();
    const EmulatedLaunchResult result = harness.call({&y}, 2.0);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(result.error_code, "KPLAY_TIMEOUT");
    EXPECT_EQ(result.error, "The host reference did not finish within 2 s and was stopped: an endless loop?");
    EXPECT_GE(waited, 2.0);
    EXPECT_LT(waited, 6.0);
}

TEST(HostReference, AssertAbortAndAnEscapingExceptionSayWhat) {
    ReferenceHarness harness(R"(#ifdef KPLAY_REFERENCE
#include <cassert>
#include <cstdlib>
#include <stdexcept>
#include <vector>
void escapes() noexcept { throw std::runtime_error("inside a noexcept function"); }
void kplay_reference(float* y, int mode) {
    assert(mode != 0);
    if (mode == 1) std::abort();
    if (mode == 2) escapes();
    std::vector<float> few(3);
    y[0] = few.at(static_cast<size_t>(mode));
}
#endif
)");
    ASSERT_TRUE(harness.build().ok);
    float* y = harness.buffer<float>("y", 1);
    int mode = 0;
    const EmulatedLaunchResult asserted = harness.call({&y, &mode});
    EXPECT_EQ(asserted.error_code, "KPLAY_REFERENCE_FAILED");
    EXPECT_EQ(asserted.error, "the reference aborted (assertion `mode != 0` failed at emu/ref.cu:8)");
    EXPECT_EQ(asserted.file, "emu/ref.cu");
    EXPECT_EQ(asserted.line, 8);
    mode = 1;
    EXPECT_EQ(harness.call({&y, &mode}).error, "the reference aborted (abort() was called)");
    mode = 2;  // std::terminate, whose own handler would print
    EXPECT_EQ(harness.call({&y, &mode}).error, "the reference aborted (std::terminate was called)");
    mode = 5;
    const EmulatedLaunchResult thrown = harness.call({&y, &mode});
    EXPECT_EQ(thrown.error_code, "KPLAY_REFERENCE_FAILED");
    EXPECT_EQ(thrown.error.rfind("the reference threw an exception it did not catch: vector::_M_range_check", 0), 0u)
        << thrown.error;
}

// ---- hostile references: each defence on its own -------------------------------------------------

struct HostileReference {
    const char* name;
    const char* body;     // the reference's statements; `target` is a file in the test's folder
    const char* symbol;   // what the symbol check names
    const char* syscall;  // what the sandbox names when the symbol check is off
};

const HostileReference kHostileReferences[] = {
    {"system", "y[0] = std::system((std::string(\"touch \") + target).c_str());", "system", ""},
    {"fopen", "std::FILE* f = std::fopen(target, \"w\"); y[0] = f != nullptr;", "fopen", "openat"},
    {"open", "y[0] = static_cast<float>(::open(target, O_CREAT | O_WRONLY, 0644));", "open", "openat"},
};

std::string hostile_reference(const HostileReference& h) {
    return std::string(
               "#ifdef KPLAY_REFERENCE\n#include <fcntl.h>\n#include <cstdio>\n#include <cstdlib>\n#include <string>\n"
               "void kplay_reference(float* y, const char* target) {\n    ") +
           h.body + "\n}\n#endif\n";
}

TEST(HostReference, HostileReferencesAreRefusedBeforeLoading) {
    for (const HostileReference& h : kHostileReferences) {
        SCOPED_TRACE(h.name);
        ReferenceHarness harness(hostile_reference(h));
        const std::string refused = refusal(harness);
        EXPECT_NE(refused.find("emu/ref.cu: refused to load the host reference: it calls "), std::string::npos)
            << refused;
        EXPECT_NE(refused.find(std::string("'") + h.symbol), std::string::npos) << refused;
        EXPECT_NE(refused.find("A reference computes into its buffers; it cannot reach the system."), std::string::npos)
            << refused;
    }
}

// A refused C++ function is named as it is written, not as the linker spells it.
TEST(HostReference, RefusedFunctionsAreNamedReadably) {
    ReferenceHarness harness("#ifdef KPLAY_REFERENCE\n#include <chrono>\nvoid kplay_reference(long* y) {\n"
                             "    y[0] = std::chrono::steady_clock::now().time_since_epoch().count();\n}\n#endif\n");
    const std::string refused = refusal(harness);
    EXPECT_NE(refused.find("it calls 'std::chrono::_V2::steady_clock::now()'"), std::string::npos) << refused;
    EXPECT_EQ(refused.find("_ZN"), std::string::npos) << refused;
}

TEST(HostReference, HostileReferencesPastTheSymbolCheckAreStoppedByTheSandbox) {
    for (const HostileReference& h : kHostileReferences) {
        SCOPED_TRACE(h.name);
        ReferenceHarness harness(hostile_reference(h), /*check_symbols=*/false);
        const HostReferenceObject object = harness.build();
        ASSERT_TRUE(object.ok) << object.diagnostics;
        EXPECT_TRUE(object.param_sizes.empty()) << "an unchecked object must not be loaded to read its parameters";
        const fs::path target = harness.dir() / "created-by-the-reference";
        const std::string target_text = target.string();
        float* y = harness.buffer<float>("y", 1);
        const char* target_arg = target_text.c_str();
        const EmulatedLaunchResult result = harness.call({&y, &target_arg});
        EXPECT_EQ(result.error_code, "KPLAY_SANDBOX") << result.error;
        EXPECT_EQ(result.error.rfind("the reference made a system call the emulated device forbids (", 0), 0u)
            << result.error;
        EXPECT_NE(result.error.find("; the sandbox stopped it. A reference may only compute into its buffers."),
                  std::string::npos)
            << result.error;
        if (*h.syscall) {
            EXPECT_NE(result.error.find(std::string("(") + h.syscall + " of '" + target_text + "')"), std::string::npos)
                << result.error;
        }
        EXPECT_FALSE(fs::exists(target)) << "the reference created " << target;
    }
}

TEST(HostReference, CodeThatWouldRunAtLoadIsRefused) {
    const std::pair<const char*, const char*> cases[] = {
        {"struct Table { Table() { volatile int v = 3; value = v; } int value; };\nTable table;\nvoid "
         "kplay_reference(int* y) { y[0] = "
         "table.value; }\n",
         "global or static objects with constructors or destructors"},
        {"#include <vector>\nvoid kplay_reference(int* y) { static std::vector<int> cache(4); y[0] = cache.size(); }\n",
         "global or static objects with constructors or destructors"},
        {"extern \"C\" void _init() {}\nvoid kplay_reference(int* y) { y[0] = 1; }\n",
         "a function named _init or _fini"},
        {"#include <iostream>\nvoid kplay_reference(int* y) { std::cout << y[0]; }\n", "it includes <iostream>"},
        // What libstdc++ 13's <iostream> leaves, on any version: the stream, without an ios_base::Init object.
        {"#include <ostream>\nnamespace std { extern ostream cerr; }\nvoid kplay_reference(int* y) { std::cerr << y[0]; }\n",
         "it includes <iostream>"},
    };
    for (const auto& [code, expected] : cases) {
        SCOPED_TRACE(code);
        ReferenceHarness harness(std::string("#ifdef KPLAY_REFERENCE\n") + code + "#endif\n");
        const std::string refused = refusal(harness);
        EXPECT_NE(refused.find("emu/ref.cu: refused to load the host reference: it "), std::string::npos) << refused;
        EXPECT_NE(refused.find(expected), std::string::npos) << refused;
    }
}

TEST(HostReference, InlineAsmAndLoadTimeAttributesAreRefusedWithTheLine) {
    const std::pair<const char*, const char*> cases[] = {
        {"void kplay_reference(int* y) {\n    asm volatile(\"\" ::: \"memory\");\n}\n",
         "emu/ref.cu:3: inline assembly (asm) is not allowed"},
        {"void renamed() __asm__(\"_fini\");\nvoid kplay_reference(int* y) {}\n",
         "emu/ref.cu:2: inline assembly (asm) is not allowed"},
        {"\n__attribute__((constructor)) static void early() {}\nvoid kplay_reference(int* y) {}\n",
         "emu/ref.cu:3: the attribute 'constructor' is not allowed"},
        {"[[gnu::destructor]] static void late() {}\nvoid kplay_reference(int* y) {}\n",
         "emu/ref.cu:2: the attribute 'destructor' is not allowed"},
        {"__attribute__ ((section(\".init_array\"))) void (*early)() = 0;\nvoid kplay_reference(int* y) {}\n",
         "emu/ref.cu:2: the attribute 'section' is not allowed"},
    };
    for (const auto& [code, expected] : cases) {
        SCOPED_TRACE(code);
        ReferenceHarness harness(std::string("#ifdef KPLAY_REFERENCE\n") + code + "#endif\n");
        EXPECT_EQ(refusal(harness).rfind(expected, 0), 0u) << refusal(harness);
    }
    // Inline PTX inside device code is blanked with the body, so a cp.async kernel can have a reference.
    ReferenceHarness ptx(
        "__device__ void fence() { asm volatile(\"fence.proxy.async;\" ::: \"memory\"); }\n"
        "#ifdef KPLAY_REFERENCE\nvoid kplay_reference(int* y) { y[0] = 1; }\n#endif\n");
    EXPECT_EQ(refusal(ptx), "");
}

TEST(HostReference, AMissingOverloadedOrTemplateFunctionIsNamed) {
    ReferenceHarness missing("__global__ void k(float* y) {}\n");
    const HostReferenceObject none = missing.build();
    EXPECT_FALSE(none.ok);
    const std::string named = "no host reference function 'kplay_reference(...)' in emu/ref.cu: ";
    EXPECT_TRUE(none.diagnostics == named + "'kplay_reference' was not declared in this scope" ||  // GCC
                none.diagnostics == named + "use of undeclared identifier 'kplay_reference'")      // clang
        << none.diagnostics;

    ReferenceHarness overloaded(
        "#ifdef KPLAY_REFERENCE\nvoid kplay_reference(float* y) {}\nvoid kplay_reference(double* y) {}\n#endif\n");
    const HostReferenceObject two = overloaded.build();
    EXPECT_FALSE(two.ok);
    EXPECT_EQ(two.diagnostics.rfind(
                  "no host reference function 'kplay_reference(...)' in emu/ref.cu: it is overloaded or a template", 0),
              0u)
        << two.diagnostics;

    ReferenceHarness templated("#ifdef KPLAY_REFERENCE\ntemplate <class T> void kplay_reference(T* y) {}\n#endif\n");
    EXPECT_EQ(templated.build().diagnostics.rfind(
                  "no host reference function 'kplay_reference(...)' in emu/ref.cu: it is overloaded or a template", 0),
              0u);

    ReferenceHarness returning("#ifdef KPLAY_REFERENCE\ndouble kplay_reference(float* y) { return 1; }\n#endif\n");
    EXPECT_NE(returning.build().diagnostics.find("a host reference returns void"), std::string::npos);

    // An error in the user's own code is shown as the compiler gave it, at the user's line.
    ReferenceHarness typo(
        "#ifdef KPLAY_REFERENCE\nvoid kplay_reference(float* y) {\n    y[0] = undefined_name;\n}\n#endif\n");
    const HostReferenceObject bad = typo.build();
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.diagnostics.find("emu/ref.cu:3:"), std::string::npos) << bad.diagnostics;
    EXPECT_NE(bad.diagnostics.find("undefined_name"), std::string::npos) << bad.diagnostics;
}

TEST(HostReference, EveryShippedKernelFileCanCarryAReference) {
    for (const std::string task : {"grayscale", "matmul"}) {
        for (const fs::path& file : test::kernel_files(task)) {
            SCOPED_TRACE(file.string());
            ReferenceHarness harness(
                test::read_file(file) +
                "\n#ifdef KPLAY_REFERENCE\nvoid kplay_reference(float* y) { y[0] = 1; }\n#endif\n");
            const HostReferenceObject object = harness.build();
            EXPECT_TRUE(object.ok) << object.diagnostics;
            EXPECT_EQ(object.param_sizes, (std::vector<size_t>{8}));
        }
    }
}

// ---- the rewrite itself --------------------------------------------------------------------------

TEST(HostReference, DeviceBodiesAreBlankedAndEveryLineStays) {
    const std::string source =
        "#define HD __host__ __device__\n"
        "__device__ int table[2] = {1, 2};\n"
        "__device__ float helper(float v) {\n"
        "    return __shfl_down_sync(0xffffffff, v, 1);\n"
        "}\n"
        "HD inline float kept(float v) { return v; }\n"
        "__host__ __device__ float both(float v) { return v * 2; }\n"
        "template <int N> __global__ void k(float* y) { y[threadIdx.x] = N; }\n"
        "namespace { __device__ __forceinline__ int inner() { return 1; } }\n"
        "__device__ float2& operator+=(float2& a, float2 b) {\n    a.x += b.x;\n    return a;\n}\n"
        "/* __device__ void in_a_comment() { } */ __device__ const char* name = \"__device__ f() {}\";\n"
        "struct Pair {\n    __device__ Pair() : a(0) { a = threadIdx.x; }\n    __host__ __device__ int sum() const { "
        "return a; }\n    int a;\n};\n";
    const std::string blanked = blank_device_bodies(source, blank_comments_and_strings(source));
    EXPECT_EQ(blanked,
              "#define HD __host__ __device__\n"
              "__device__ int table[2] = {1, 2};\n"
              "__device__ float helper(float v) {\n"
              "\n"
              "}\n"
              "HD inline float kept(float v) { return v; }\n"
              "__host__ __device__ float both(float v) { return v * 2; }\n"
              "template <int N> __global__ void k(float* y) {}\n"
              "namespace { __device__ __forceinline__ int inner() {} }\n"
              "__device__ float2& operator+=(float2& a, float2 b) {\n\n\n}\n"
              "/* __device__ void in_a_comment() { } */ __device__ const char* name = \"__device__ f() {}\";\n"
              "struct Pair {\n    __device__ Pair() : a(0) {}\n    __host__ __device__ int sum() const { return a; }\n "
              "   int a;\n};\n");
}

}  // namespace
}  // namespace kplay
