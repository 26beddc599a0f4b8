// The plan stage, which is pure: spec + values + settings + device -> a validated launch and bound
// arguments, or the exact reason there is none.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "plan/plan.hpp"
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/task_sizes.hpp"

using namespace kplay;

namespace {

DeviceInfo device() {
    DeviceInfo info;
    info.name = "test GPU";
    info.sm_count = 132;
    info.limits.max_smem_per_block_optin = 227 * 1024;
    return info;
}

FunctionAttributes function_with(std::vector<size_t> sizes) {
    FunctionAttributes function;
    function.max_threads_per_block = 1024;
    size_t offset = 0;
    for (size_t size : sizes) {
        offset = (offset + size - 1) / size * size;
        function.params.push_back({offset, size});
        offset += size;
    }
    return function;
}

// The function outlives the call that plans with it (plans keep no pointer to it).
const FunctionAttributes* function_ptr(std::vector<size_t> sizes) {
    static FunctionAttributes kept;
    kept = function_with(std::move(sizes));
    return &kept;
}

std::vector<PlanBuffer> buffers_of(const TaskSpec& task, const NamedValues& values) {
    std::vector<PlanBuffer> buffers;
    for (const auto& spec : task.buffers) {
        PlanBuffer buffer{spec.name, spec.type, evaluate_int_expr(spec.length, values), {}, spec.is_output()};
        for (const auto& side : spec.shape) buffer.shape.push_back(evaluate_int_expr(side, values));
        if (buffer.shape.empty()) buffer.shape = {buffer.count};
        buffers.push_back(buffer);
    }
    return buffers;
}

struct Planned {
    KernelSpec spec;
    NamedValues values;
    std::vector<PlanBuffer> buffers;
};

Planned planned(const std::string& source, const std::string& path, const std::string& sizes) {
    Planned p;
    p.spec = resolve_kernel_spec(source, path);
    p.values = size_values(p.spec.task, parse_size_values(p.spec.task, sizes));
    p.buffers = buffers_of(p.spec.task, p.values);
    return p;
}

const char* const kRows =
    "// kplay: kernel=softmax_rows args=x,y,R,C block=128 grid=cdiv(R,4) requires=C%4==0\n"
    "// kplay-sizes: R,C default=64x32\n"
    "// kplay-buffer: x f32[R*C] in\n"
    "// kplay-buffer: y f32[R*C] out shape=R,C\n"
    "__global__ void softmax_rows(const float* x, float* y, int R, int C) {}\n"
    "#ifdef KPLAY_REFERENCE\nvoid kplay_reference(const float* x, float* y, int R, int C) {}\n#endif\n";

std::string plan_error(const Planned& p, const LaunchSettings& settings, const FunctionAttributes& function) {
    try {
        make_plan(p.spec, p.values, p.buffers, settings, device(), &function);
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no error)";
}

}  // namespace

TEST(Plan, BindsArgumentsAndEvaluatesTheLaunch) {
    const Planned p = planned(kRows, "rows.cu", "1000x64");
    const LaunchPlan plan = make_plan(p.spec, p.values, p.buffers, {}, device(), function_ptr({8, 8, 4, 4}));
    EXPECT_EQ(plan.launch.block.x, 128);
    EXPECT_EQ(plan.launch.grid.x, 250);  // cdiv(R, 4)
    EXPECT_FALSE(plan.launch.auto_grid);
    EXPECT_EQ(plan.names.at("sms"), 132);
    ASSERT_EQ(plan.arguments.size(), 4u);
    EXPECT_EQ(plan.arguments[0].buffer, 0);
    EXPECT_EQ(plan.arguments[1].buffer, 1);
    EXPECT_EQ(plan.arguments[2].value, "1000");
    EXPECT_EQ(plan.arguments[3].value, "64");
    // Without a function (before the kernel is loaded): the launch is checked against the device only.
    EXPECT_TRUE(make_plan(p.spec, p.values, p.buffers, {}, device(), nullptr).arguments.empty());
}

TEST(Plan, TheAutoGridCoversTheTasksExtent) {
    const char* const source =
        "// kplay-sizes: n default=1000\n// kplay-buffer: x f32[n] in\n// kplay-buffer: total f32[1] out init=zero\n"
        "__global__ void k(const float* x, float* total, int n) {}\n"
        "#ifdef KPLAY_REFERENCE\nvoid kplay_reference(const float* x, float* total, int n) {}\n#endif\n";
    const Planned p = planned(source, "sum.cu", "1000");
    const LaunchPlan plan = make_plan(p.spec, p.values, p.buffers, {}, device(), function_ptr({8, 8, 4}));
    EXPECT_EQ(plan.extent, (std::array<int64_t, 3>{1000, 1, 1}));  // the largest buffer, not the 1-element output
    EXPECT_EQ(plan.launch.grid.x, 4);
    EXPECT_TRUE(plan.launch.auto_grid);
    EXPECT_EQ(plan.coverage.idle_threads, 24);

    // A 2D launch covers the primary output's shape, columns then rows.
    const Planned rows = planned(std::string(kRows).replace(0, std::string(kRows).find('\n'), "// kplay: launch=2d block=16,16"),
                                 "rows.cu", "100x40");
    const LaunchPlan two_d = make_plan(rows.spec, rows.values, rows.buffers, {}, device(), function_ptr({8, 8, 4, 4}));
    EXPECT_EQ(two_d.extent, (std::array<int64_t, 3>{40, 100, 1}));
    EXPECT_EQ(two_d.launch.grid.x, 3);
    EXPECT_EQ(two_d.launch.grid.y, 7);
}

TEST(Plan, SettingsOverrideTheSpec) {
    const Planned p = planned(kRows, "rows.cu", "64x32");
    LaunchSettings settings;
    settings.block = std::vector<int64_t>{64};
    settings.grid = std::vector<int64_t>{};  // auto
    settings.smem = 4096;
    const LaunchPlan plan = make_plan(p.spec, p.values, p.buffers, settings, device(), function_ptr({8, 8, 4, 4}));
    EXPECT_EQ(plan.launch.block.x, 64);
    EXPECT_TRUE(plan.launch.auto_grid);
    EXPECT_EQ(plan.launch.grid.x, 64 * 32 / 64);
    EXPECT_EQ(plan.launch.dynamic_smem, 4096);
}

TEST(Plan, RequiresRefusesOtherSizes) {
    const Planned p = planned(kRows, "rows.cu", "64x30");
    EXPECT_EQ(plan_error(p, {}, function_with({8, 8, 4, 4})),
              "Not launched: this kernel requires C%4==0 (its kplay annotation, line 1), which does not hold at R=64, C=30.");
    EXPECT_EQ(requirement_broken(p.spec, size_values(p.spec.task, {64, 32})), std::nullopt);
}

// A kernel whose shared arrays assume its block says so; another block is refused before launching.
TEST(Plan, RequiresMaySeeTheBlock) {
    std::string source = kRows;
    source.replace(source.find("requires=C%4==0"), 15, "requires=block_x==128");
    const Planned p = planned(source, "rows.cu", "64x32");
    EXPECT_EQ(plan_error(p, {}, function_with({8, 8, 4, 4})), "(no error)");
    LaunchSettings other;
    other.block = std::vector<int64_t>{64};
    EXPECT_EQ(plan_error(p, other, function_with({8, 8, 4, 4})),
              "Not launched: this kernel requires block_x==128 (its kplay annotation, line 1), which does not hold at R=64, C=32, "
              "block 64,1,1.");
    // A later launch's expressions still see the first launch's block, not their own.
    NamedValues names = p.values;
    names["block_x"] = 999;
    EXPECT_EQ(with_block_names(p.spec, other, names).at("block_x"), 64);
}

TEST(Plan, InvalidLaunchesAndBindingsAreMessages) {
    const Planned p = planned(kRows, "rows.cu", "64x32");
    LaunchSettings big;
    big.block = std::vector<int64_t>{2048};
    const std::string launch = plan_error(p, big, function_with({8, 8, 4, 4}));
    EXPECT_NE(launch.find("Invalid launch configuration:"), std::string::npos) << launch;
    EXPECT_NE(launch.find("2048 threads"), std::string::npos) << launch;
    EXPECT_NE(plan_error(p, {}, function_with({8, 8, 4})).find("takes 3 parameters but 4 arguments are bound"), std::string::npos);
    EXPECT_NE(plan_error(p, {}, function_with({8, 8, 12, 4})).find("12-byte parameter"), std::string::npos);
}

// The cuBLAS ceiling plans with the library's own argument list (a,b,c,M,N,K); the kernel's literals (tw=16) still
// size the launch its block and smem expressions describe.
TEST(Plan, ALibraryBindsItsOwnArgumentsUnderTheKernelsLiterals) {
    const char* const source =
        "// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K,tw=16 launch=2d block=tw,tw smem=2*tw*tw*4\n"
        "__global__ void matmul_k(float *m, float *n, float *out, int h, int w, int k, int tw) {}\n";
    const Planned p = planned(source, "tiled.cu", "64");
    const LaunchPlan plan = make_plan_with_args(p.spec, p.spec.task.cost.gemm, p.values, p.buffers, {}, device(),
                                                function_ptr({8, 8, 8, 4, 4, 4}));
    EXPECT_EQ(plan.launch.block.x, 16);
    EXPECT_EQ(plan.launch.block.y, 16);
    EXPECT_EQ(plan.launch.dynamic_smem, 2 * 16 * 16 * 4);
    ASSERT_EQ(plan.arguments.size(), 6u);
    EXPECT_EQ(plan.arguments[3].value, "64");
}

// grid=cdiv(n,16*256) gives each thread sixteen elements by design; the same grid typed by hand is worth a warning.
TEST(Plan, ADeclaredGridOfSeveralElementsPerThreadIsNotAWarning) {
    const char* const source =
        "// kplay: kernel=k args=x,y,n block=256 grid=cdiv(n,16*256)\n"
        "// kplay-sizes: n default=1024000\n// kplay-buffer: x f32[n] in\n// kplay-buffer: y f32[n] out\n"
        "__global__ void k(const float* x, float* y, int n) {}\n"
        "#ifdef KPLAY_REFERENCE\nvoid kplay_reference(const float* x, float* y, int n) {}\n#endif\n";
    const Planned p = planned(source, "sixteen.cu", "1024000");
    const LaunchPlan declared = make_plan(p.spec, p.values, p.buffers, {}, device(), nullptr);
    EXPECT_EQ(declared.coverage.note(), "each thread owns 16.0 elements on average");
    LaunchSettings by_hand;
    by_hand.grid = std::vector<int64_t>{250};
    EXPECT_EQ(make_plan(p.spec, p.values, p.buffers, by_hand, device(), nullptr).coverage.note(),
              "960000 of 1024000 elements have no thread of their own (fine only if each thread loops over several)");
}
