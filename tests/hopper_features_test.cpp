// Hopper's features in the annotation, with their exact messages: arch=sm_90a, cluster=, kplay-tma
// descriptors (parsed, planned and bound), the cluster limits, the target/device match, and the
// emulated device's refusal by name. Pure: no GPU, no compiler.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "values/codec.hpp"
#include "plan/plan.hpp"
#include "device/emulated_device.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/target_arch.hpp"
#include "kernel_file/task_sizes.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

// The ladder's shape of a TMA + wgmma kernel: two descriptors, a cluster, sm_90a.
const char* const kHopper =
    "// kplay: task=matmul kernel=gemm args=a_map,b_map,c,M,N,K launch=2d block=384 grid=cdiv(N,128),cdiv(M,256) "
    "smem=1024+4*48*1024 arch=sm_90a cluster=2,1,1 requires=K%4==0&&N%4==0\n"
    "// kplay-tma: a_map buffer=a shape=M,K box=256,32 swizzle=128\n"
    "// kplay-tma: b_map buffer=b shape=K, N box=32,32 swizzle=128 type=tf32\n"
    "struct alignas(64) kplay_tensor_map { unsigned long long opaque[16]; };\n"
    "__global__ void gemm(const __grid_constant__ kplay_tensor_map a_map, const __grid_constant__ kplay_tensor_map b_map, float* c, "
    "int M, int N, int K) {}\n";

std::string spec_error(const std::string& source, const std::string& path = "matmul/h.cu") {
    return test::input_error_of([&] { resolve_kernel_spec(source, path); });
}

std::string with_line(const std::string& source, const std::string& from, const std::string& to) {
    std::string text = source;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

DeviceInfo hopper() {
    DeviceInfo info;
    info.name = "H";
    info.cc_major = 9;
    info.sm_count = 132;
    info.limits.max_smem_per_block_optin = 227 * 1024;
    info.limits.max_cluster_size = 8;
    return info;
}

struct Planned {
    KernelSpec spec;
    NamedValues values;
    std::vector<PlanBuffer> buffers;
    FunctionAttributes function;
};

Planned planned(const std::string& source, const std::string& sizes) {
    Planned p;
    p.spec = resolve_kernel_spec(source, "matmul/h.cu");
    p.values = size_values(p.spec.task, parse_size_values(p.spec.task, sizes));
    for (const auto& buffer : p.spec.task.buffers) {
        PlanBuffer planned{buffer.name, buffer.type, evaluate_int_expr(buffer.length, p.values), {}, buffer.is_output()};
        for (const auto& side : buffer.shape) planned.shape.push_back(evaluate_int_expr(side, p.values));
        p.buffers.push_back(planned);
    }
    p.function.max_threads_per_block = 1024;
    p.function.params = {{0, 128}, {128, 128}, {256, 8}, {264, 4}, {268, 4}, {272, 4}};
    return p;
}

std::string plan_error(const Planned& p, const DeviceInfo& device = hopper()) {
    return test::input_error_of([&] { make_plan(p.spec, p.values, p.buffers, {}, device, &p.function); });
}

}  // namespace

TEST(HopperSpec, ReadsArchClusterAndDescriptors) {
    const KernelSpec spec = resolve_kernel_spec(kHopper, "matmul/h.cu");
    EXPECT_EQ(spec.arch, "sm_90a");
    EXPECT_EQ(spec.cluster, (std::vector<std::string>{"2", "1", "1"}));
    ASSERT_EQ(spec.tensor_maps.size(), 2u);
    const TensorMapDecl& a = spec.tensor_maps[0];
    EXPECT_EQ(a.name, "a_map");
    EXPECT_EQ(a.buffer, "a");
    EXPECT_EQ(a.shape, (std::vector<std::string>{"M", "K"}));
    EXPECT_EQ(a.box, (std::vector<std::string>{"256", "32"}));
    EXPECT_EQ(a.swizzle, TmaSwizzle::bytes128);
    EXPECT_EQ(a.element, TmaElement::same);
    EXPECT_EQ(a.line, 2);
    EXPECT_EQ(spec.tensor_maps[1].shape, (std::vector<std::string>{"K", "N"})) << "a value with a space reads as one";
    EXPECT_EQ(spec.tensor_maps[1].element, TmaElement::tf32);
    EXPECT_EQ(spec.gpu_only_features(),
              (std::vector<std::string>{"arch=sm_90a (line 1)", "cluster=2,1,1 (line 1)", "the TMA descriptor a_map (kplay-tma, line 2)",
                                        "the TMA descriptor b_map (kplay-tma, line 3)"}));
    // The spec travels to the window and over a remote link with all of it.
    const KernelSpec back = nlohmann::json(spec).get<KernelSpec>();
    EXPECT_EQ(back.arch, "sm_90a");
    EXPECT_EQ(back.cluster, spec.cluster);
    ASSERT_EQ(back.tensor_maps.size(), 2u);
    EXPECT_EQ(back.tensor_maps[1].swizzle, TmaSwizzle::bytes128);
    EXPECT_EQ(back.tensor_maps[1].element, TmaElement::tf32);
}

TEST(HopperSpec, BadDeclarationsAreExactMessages) {
    EXPECT_EQ(spec_error(with_line(kHopper, "arch=sm_90a", "arch=hopper")),
              "h.cu:1: kplay annotation: arch must name a GPU target like sm_90, sm_90a or sm_100a, not 'hopper'");
    EXPECT_EQ(spec_error(with_line(kHopper, "cluster=2,1,1", "cluster=2,1,1,1")),
              "h.cu:1: kplay annotation: block, grid and cluster take at most 3 values (x,y,z)");
    EXPECT_EQ(spec_error(with_line(kHopper, "swizzle=128\n// kplay-tma: b_map", "swizzle=96\n// kplay-tma: b_map")),
              "h.cu:2: kplay-tma: swizzle must be none, 32, 64 or 128 (bytes), not '96'");
    EXPECT_EQ(spec_error(with_line(kHopper, "box=256,32", "box=256")),
              "h.cu:2: kplay-tma: box= gives 1 values and shape= 2: one box extent per dimension, outermost first");
    EXPECT_EQ(spec_error(with_line(kHopper, "buffer=a ", "")), "h.cu:2: kplay-tma: needs buffer= (keys: buffer, shape, box, swizzle, type)");
    EXPECT_EQ(spec_error(with_line(kHopper, "buffer=a ", "buffer=x ")),
              "h.cu:2: kplay-tma: a_map: buffer=x is not one of the task's buffers (a, b, c)");
    EXPECT_EQ(spec_error(with_line(kHopper, "swizzle=128 type=tf32", "swizzle=128 stride=4")),
              "h.cu:3: kplay-tma: unknown key 'stride' (keys: buffer, shape, box, swizzle, type)");
    EXPECT_EQ(spec_error(with_line(kHopper, "type=tf32", "type=bf16")),
              "h.cu:3: kplay-tma: type may only be tf32 (an f32 buffer the copy engine treats as TF32), not 'bf16'; without type= the "
              "buffer's own type is used");
    EXPECT_EQ(spec_error(with_line(kHopper, "// kplay-tma: b_map", "// kplay-tma: a_map")),
              "h.cu:3: kplay-tma: 'a_map' is declared twice (first at line 2)");
    EXPECT_EQ(spec_error(with_line(kHopper, "args=a_map,b_map,", "args=a_map,b,")),
              "h.cu:3: kplay-tma: b_map: no launch passes it: name it in args= where the kernel takes it (args=a_map,b,c,M,N,K)");
}

TEST(HopperPlan, DescriptorsAreEvaluatedInnermostFirstAndBound) {
    const Planned p = planned(kHopper, "1000x996x1004");
    const LaunchPlan plan = make_plan(p.spec, p.values, p.buffers, {}, hopper(), &p.function);
    EXPECT_EQ(plan.launch.cluster.text(), "2,1,1");
    EXPECT_TRUE(plan.launch.clustered());
    ASSERT_EQ(plan.tensor_maps.size(), 2u);
    const TensorMapPlan& a = plan.tensor_maps[0];
    EXPECT_EQ(a.argument, 0u);
    EXPECT_EQ(a.buffer, 0);
    EXPECT_EQ(a.rank, 2);
    EXPECT_EQ(a.dims[0], 1004u);  // K, the contiguous one
    EXPECT_EQ(a.dims[1], 1000u);  // M
    EXPECT_EQ(a.strides[0], 1004u * 4);
    EXPECT_EQ(a.box[0], 32u);
    EXPECT_EQ(a.box[1], 256u);
    EXPECT_EQ(a.text(), "1000x1004 f32, box 256x32, 128B swizzle");
    EXPECT_EQ(plan.tensor_maps[1].argument, 1u);
    EXPECT_EQ(plan.tensor_maps[1].text(), "1004x996 tf32, box 32x32, 128B swizzle");
    EXPECT_EQ(plan.arguments[0].kind, "tensor map");
    EXPECT_EQ(plan.arguments[0].tensor_map, 0);
    EXPECT_EQ(plan.arguments[0].buffer, -1) << "a descriptor is not a pointer the runner fills in";
    EXPECT_EQ(plan.arguments[0].value, "a 1000x1004 f32, box 256x32, 128B swizzle");
    EXPECT_EQ(plan.arguments[2].buffer, 2);
}

TEST(HopperPlan, DescriptorsTheDriverWouldRefuseAreMessagesFirst) {
    // K=1002: a row of A is 4008 bytes, not a multiple of 16 (the file's requires= is taken out).
    const std::string no_requirement = with_line(kHopper, " requires=K%4==0&&N%4==0", "");
    EXPECT_EQ(plan_error(planned(no_requirement, "64x256x1002")),
              "kplay-tma a_map (line 2): one step along M is 4008 bytes; TMA needs every row pitch to be a "
              "multiple of 16 bytes (say so with requires=, e.g. requires=K%4==0)");
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "box=256,32", "box=512,32"), "64x256x64")),
              "kplay-tma a_map (line 2): box extent '512' is 512; a TMA box extent is 1 to 256");
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "box=256,32", "box=256,64"), "64x256x64")),
              "kplay-tma a_map (line 2): the box's inner extent is 256 bytes, wider than its 128-byte swizzle span; make it at most 32 "
              "elements, or load several boxes");
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "box=256,32", "box=256,6"), "64x256x64")),
              "kplay-tma a_map (line 2): the box's inner extent is 6 elements = 24 bytes; TMA moves rows of whole 16-byte pieces, so make "
              "it a multiple of 4 elements");
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "shape=M,K", "shape=M,2*K"), "64x256x64")),
              "kplay-tma a_map (line 2): shape M,2*K is 8192 elements, but buffer a holds 4096");
    // A parameter that is not 128 bytes, or a pointer, where a descriptor is bound.
    Planned pointer = planned(with_line(kHopper, "const __grid_constant__ kplay_tensor_map a_map", "const float* a_map"), "64x256x64");
    pointer.function.params[0] = {0, 8};
    EXPECT_EQ(plan_error(pointer),
              "argument 1 (a_map) of gemm is a pointer ('const float*'), but 'a_map' is a TMA descriptor, passed by value: declare it "
              "`const __grid_constant__ CUtensorMap a_map`.");
    Planned small = planned(kHopper, "64x256x64");
    small.function.params[0] = {0, 64};
    EXPECT_EQ(plan_error(small),
              "argument 1 (a_map) of gemm is 64 bytes, but 'a_map' is a TMA descriptor (a 128-byte CUtensorMap): declare it `const "
              "__grid_constant__ CUtensorMap a_map` (or kplay_tensor_map from hopper.cuh).");
}

TEST(HopperPlan, ClustersAreCheckedAgainstTheGridAndTheDevice) {
    // 996 columns / 128 = 8 blocks across, 1000 rows / 256 = 4 down.
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "cluster=2,1,1", "cluster=3,1,1"), "1000x996x1004")),
              "Invalid launch configuration:\n  - grid.x is 8, not a multiple of cluster.x (3): every cluster must be whole.");
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "cluster=2,1,1", "cluster=16,1,1"), "1000x2048x1004")),
              "Invalid launch configuration:\n  - The cluster has 16 blocks (16,1,1); at most 8 per cluster are portable.");
    EXPECT_EQ(plan_error(planned(with_line(kHopper, "cluster=2,1,1", "cluster=2,0,1"), "1000x996x1004")),
              "Invalid launch configuration:\n  - cluster.y is 0; it must be at least 1.");
    DeviceInfo ampere = hopper();
    ampere.cc_major = 8;
    ampere.limits.max_cluster_size = 0;
    EXPECT_EQ(plan_error(planned(kHopper, "1000x996x1004"), ampere),
              "Invalid launch configuration:\n  - cluster=2,1,1: thread block clusters need compute capability 9.0 or newer; this device "
              "has none.");
    // The plan's launch for the following kernels has no cluster; the first's cluster is the file's.
    const Planned p = planned(with_line(kHopper, " cluster=2,1,1", ""), "1000x996x1004");
    EXPECT_FALSE(make_plan(p.spec, p.values, p.buffers, {}, hopper(), &p.function).launch.clustered());
}

TEST(HopperArch, TargetsRunOnTheirComputeCapabilities) {
    EXPECT_TRUE(is_arch_name("sm_90a"));
    EXPECT_TRUE(is_arch_name("sm_100f"));
    EXPECT_TRUE(is_arch_name("sm_86"));
    EXPECT_FALSE(is_arch_name("sm_9"));
    EXPECT_FALSE(is_arch_name("compute_90"));
    EXPECT_FALSE(is_arch_name("sm_90x"));
    EXPECT_EQ(arch_mismatch("sm_90a", 9, 0), std::nullopt);
    EXPECT_EQ(arch_mismatch("sm_80", 8, 6), std::nullopt);
    EXPECT_EQ(arch_mismatch("sm_100f", 10, 3), std::nullopt);
    EXPECT_EQ(arch_mismatch("sm_100a", 9, 0).value_or(""),
              "sm_100a code uses that architecture's own instructions and runs only on compute capability 10.0; this device has compute "
              "capability 9.0");
    EXPECT_EQ(arch_mismatch("sm_90a", 10, 0).value_or(""),
              "sm_90a code uses that architecture's own instructions and runs only on compute capability 9.0; this device has compute "
              "capability 10.0");
    EXPECT_EQ(arch_mismatch("sm_90", 8, 9).value_or(""),
              "sm_90 code runs on compute capability 9.x from 9.0; this device has compute capability 8.9");
}

TEST(HopperEmulated, TheEmulatedDeviceRefusesEachFeatureByName) {
    const KernelSpec spec = resolve_kernel_spec(kHopper, "matmul/h.cu");
    EXPECT_EQ(emulated_device_refusal(spec, "h.cu"),
              "h.cu asks for what only a GPU has: arch=sm_90a (line 1), cluster=2,1,1 (line 1), the TMA descriptor a_map (kplay-tma, line "
              "2), the TMA descriptor b_map (kplay-tma, line 3). The emulated CPU device runs CUDA C++ on host threads and has no "
              "architecture-specific instructions (wgmma, setmaxnreg), no thread block clusters and no tensor memory accelerator (TMA). "
              "Run it on a GPU: pick one in the Device menu, run kplay-cli with --device N instead of --device cpu, or use --remote HOST.");
    const KernelSpec only_arch = resolve_kernel_spec(
        "// kplay: task=matmul kernel=k arch=sm_90a\n__global__ void k(float* a, float* b, float* c, int M, int N, int K) {}\n", "matmul/k.cu");
    EXPECT_EQ(only_arch.gpu_only_features(), std::vector<std::string>{"arch=sm_90a (line 1)"});
    const KernelSpec plain = resolve_kernel_spec("__global__ void k(float* a, float* b, float* c, int M, int N, int K) {}\n", "matmul/k.cu");
    EXPECT_EQ(emulated_device_refusal(plain, "k.cu"), "");
}
