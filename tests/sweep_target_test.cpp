// A sweep's target: points pruned before anything compiles (restrictions, `requires`, device limits)
// with the limit named, each point's run request, what "apply" would write, a point's verdict from its
// run's report, and the cache that lets a sweep resume.
#include "sweep/sweep_target.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "base/error.hpp"
#include "test_support.hpp"
#include "plan/plan.hpp"
#include "sweep/point_result.hpp"
#include "sweep/sweep_cache.hpp"

using namespace kplay;

namespace {

const char* const kTiled =
    "// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K,tw=16 launch=2d block=tw,tw smem=2*tw*tw*4\n"
    "__global__ void matmul_k(float* m, float* n, float* out, int h, int w, int k, int tw) {}\n";

// A kernel whose block and grid follow its tile defines.
const char* const kDefined =
    "// kplay: task=matmul kernel=k defines=BM=128,TM=8 launch=2d block=BM/TM grid=cdiv(N,BM),cdiv(M,BM) requires=BM%TM==0\n"
    "__global__ void k(const float* a, const float* b, float* c, int M, int N, int K) {}\n";

DeviceQuery emulated_only() {
    DeviceQuery query;
    query.emulated.available = true;
    query.emulated.device.ordinal = -1;
    query.emulated.device.name = "Emulated CPU (test)";
    query.emulated.device.sm_count = 4;
    return query;  // no GPU: the limits are CUDA's defaults (1024 threads, 48 KiB of shared memory)
}

SweepTarget target_of(const char* source, const std::vector<std::string>& params, const std::vector<std::string>& restrictions = {},
                      const std::string& size = "64x64x64") {
    SweepSpace space;
    for (const auto& param : params) space.params.push_back(parse_sweep_param(param));
    space.restrictions = restrictions;
    return make_sweep_target("tiled.cu", source, space, emulated_only(), false, 0, size);
}

SweepPoint point(std::vector<std::string> values) { return SweepPoint{std::move(values)}; }


}  // namespace

TEST(SweepTarget, PicksTheEmulatedDeviceWithoutAGpuAndTheGivenSize) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16"});
    EXPECT_TRUE(target.emulated);
    EXPECT_EQ(target.device.name, "Emulated CPU (test)");
    EXPECT_EQ(target.sizes_text, "64x64x64");
    EXPECT_EQ(target.space.params.at(0).kind, SweepParamKind::literal);
    // Without a size: the task's CPU bench size on the emulated device.
    SweepSpace space;
    space.params.push_back(parse_sweep_param("tw=8"));
    EXPECT_EQ(make_sweep_target("tiled.cu", kTiled, space, emulated_only(), true, 0, "").sizes_text, "512x512x512");
}

TEST(SweepTarget, RefusesASpaceWithoutParametersAndARestrictionNamingNothing) {
    EXPECT_EQ(kplay::test::input_error_of([] { target_of(kTiled, {}); }),
              "A sweep needs at least one parameter, e.g. --param block_x=64..1024 step *2 (or a kplay-sweep line in the file).");
    EXPECT_NE(kplay::test::input_error_of([] { target_of(kTiled, {"tw=8"}, {"tw < q"}); }).find("unknown name 'q'"), std::string::npos);
}

TEST(SweepTarget, PrunesADeviceLimitBeforeCompilingWithTheLimitNamed) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16,32,64"});
    EXPECT_EQ(prune_before_compile(target, point({"16"})), std::nullopt);
    EXPECT_EQ(prune_before_compile(target, point({"32"})), std::nullopt);  // 1024 threads, 8 KiB: fits
    EXPECT_EQ(prune_before_compile(target, point({"64"})).value_or(""),
              "The block has 4096 threads (64,64,1); the device allows at most 1024 per block (4x the limit)");
}

TEST(SweepTarget, PrunesARestrictionWithThePointsValues) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16,32", "block_x=8,16,32"}, {"block_x == tw"});
    EXPECT_EQ(prune_before_compile(target, point({"16", "16"})), std::nullopt);
    EXPECT_EQ(prune_before_compile(target, point({"16", "32"})).value_or(""), "restriction block_x == tw does not hold (tw=16, block_x=32)");
}

TEST(SweepTarget, RestrictionsSeeTheDeviceLimitsAndTheAnnotationsValues) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16,32"}, {"tw*tw*8 <= smem_max/8"});
    const NamedValues names = sweep_names(target, point({"32"}));
    EXPECT_EQ(names.at("threads_max"), 1024);
    EXPECT_EQ(names.at("smem_max"), 48 * 1024);
    EXPECT_EQ(names.at("smem_default"), 48 * 1024);
    EXPECT_EQ(names.at("warp_size"), 32);
    EXPECT_EQ(names.at("sms"), 4);
    EXPECT_EQ(names.at("M"), 64);
    EXPECT_EQ(names.at("block_x"), 32);  // block=tw,tw at tw=32
    EXPECT_EQ(prune_before_compile(target, point({"16"})), std::nullopt);
    EXPECT_EQ(prune_before_compile(target, point({"32"})).value_or(""), "restriction tw*tw*8 <= smem_max/8 does not hold (tw=32)");
}

TEST(SweepTarget, DefinesSizeTheLaunchAndMeetTheKernelsRequirement) {
    const SweepTarget target = target_of(kDefined, {"-DTM=4,8,12", "-DBM=128,8192"});
    EXPECT_EQ(prune_before_compile(target, point({"8", "128"})), std::nullopt);
    EXPECT_EQ(prune_before_compile(target, point({"12", "128"})).value_or(""),
              "this kernel requires BM%TM==0 (its kplay annotation, line 1), which does not hold at M=64, N=64, K=64");
    // block=BM/TM: 2048 threads at BM=8192, TM=4; the planner sees the defines.
    EXPECT_EQ(prune_before_compile(target, point({"4", "8192"})).value_or(""),
              "block.x is 2048; the device allows at most 1024 (over by 1024); The block has 2048 threads (2048,1,1); the device allows "
              "at most 1024 per block (2x the limit)");
}

TEST(SweepTarget, APointsRequestCarriesItsValuesAndChecksTheTestSizes) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16", "block_y=4,8", "-DUNROLL=2,4", "M=32,64"});
    RunRequest base;
    base.repeat = 7;
    const RunRequest request = point_request(base, target, point({"8", "4", "2", "32"}));
    EXPECT_EQ(request.repeat, 7);
    EXPECT_EQ(request.arg_overrides.at("tw"), "8");
    ASSERT_TRUE(request.block.has_value());
    EXPECT_EQ(*request.block, (std::vector<int64_t>{8, 4, 1}));  // block_x from block=tw,tw; block_y swept
    EXPECT_EQ(request.defines, (std::vector<std::pair<std::string, std::string>>{{"UNROLL", "2"}}));
    EXPECT_EQ(request.inputs.size, "32x64x64");
    EXPECT_TRUE(request.check_test_sizes);
    EXPECT_TRUE(request.test_sizes_at_any_size);
    EXPECT_TRUE(request.emulate);
    ASSERT_TRUE(request.source.has_value());
    EXPECT_EQ(*request.source, kTiled);

    std::vector<std::string> skipped;
    const AnnotationValues values = annotation_values(target, point({"8", "4", "2", "32"}), &skipped);
    EXPECT_EQ(values.block, (std::vector<int64_t>{8, 4, 1}));
    EXPECT_EQ(values.literals.at("tw"), "8");
    EXPECT_EQ(values.defines, (std::vector<std::pair<std::string, std::string>>{{"UNROLL", "2"}}));
    EXPECT_EQ(skipped, (std::vector<std::string>{"M=32"}));
}

TEST(SweepTarget, WithoutABlockParameterTheBlockFollowsTheAnnotation) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16"});
    EXPECT_FALSE(point_request({}, target, point({"8"})).block.has_value());
    EXPECT_FALSE(annotation_values(target, point({"8"})).block.has_value());
}

// `block` is what a user types for a 1D kernel: block=256 is block_x, block=32x8 sets x and y.
TEST(SweepTarget, TheBlockParameterSetsTheAxesItGives) {
    const char* const seed =
        "// kplay: task=grayscale kernel=k args=in,out,n launch=1d block=256\n"
        "__global__ void k(const unsigned char* in, unsigned char* out, int n) {}\n";
    const SweepTarget one_d = target_of(seed, {"block=32..256 step *2"}, {}, "64x64");
    EXPECT_EQ(one_d.space.params[0].values, (std::vector<std::string>{"32", "64", "128", "256"}));
    EXPECT_EQ(*point_request({}, one_d, point({"64"})).block, (std::vector<int64_t>{64, 1, 1}));
    EXPECT_EQ(annotation_values(one_d, point({"128"})).block, (std::vector<int64_t>{128, 1, 1}));

    const SweepTarget two_d = target_of(kTiled, {"block=32x8,16x16,8x8x2", "tw=16"}, {"block_x*block_y <= 256"});
    EXPECT_EQ(two_d.space.params[0].kind, SweepParamKind::block);
    EXPECT_EQ(*point_request({}, two_d, point({"32x8", "16"})).block, (std::vector<int64_t>{32, 8, 1}));
    EXPECT_EQ(*point_request({}, two_d, point({"8x8x2", "16"})).block, (std::vector<int64_t>{8, 8, 2}));
    EXPECT_EQ(sweep_names(two_d, point({"32x8", "16"})).at("block_y"), 8);
    EXPECT_EQ(prune_before_compile(two_d, point({"16x16", "16"})), std::nullopt);

    EXPECT_EQ(kplay::test::input_error_of([] { target_of(kTiled, {"block=32x8", "block_y=4"}); }),
              "parameters 'block' and 'block_y' both set the block; give either block=X[xY[xZ]] or the axes block_x, block_y, block_z");
    EXPECT_EQ(kplay::test::input_error_of([] { target_of(kTiled, {"block=32x8x2x1"}); }),
              "sweep parameter 'block=32x8x2x1': '32x8x2x1' is not a block: give 1 to 3 integers separated by 'x', e.g. 256 or 32x8");
}

// A kernel whose annotation has a literal named block keeps it: the alias is for the launch's block only.
TEST(SweepTarget, ALiteralNamedBlockIsThatLiteral) {
    const char* const source =
        "// kplay: task=matmul kernel=k args=a,b,c,M,N,K,block=16 launch=2d block=block,block\n"
        "__global__ void k(float* a, float* b, float* c, int M, int N, int K, int block) {}\n";
    const SweepTarget target = target_of(source, {"block=8,16"});
    EXPECT_EQ(target.space.params[0].kind, SweepParamKind::literal);
    EXPECT_EQ(point_request({}, target, point({"8"})).arg_overrides.at("block"), "8");
}

TEST(SweepPointResult, AWorkerRefusalIsPrunedAWrongCheckCanNeverWin) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16"});
    RunReport refused;
    refused.stage = Stage::launch;
    refused.error = "Invalid launch configuration:\n  - The kernel uses 255 registers per thread; 1024 threads need 261120, more than 65536.";
    refused.error_code = ErrorCode::launch_rejected;
    refused.launch_problems = {"The kernel uses 255 registers per thread; 1024 threads need 261120, more than 65536."};
    PointResult result = point_result_from(target.space, point({"8"}), refused);
    EXPECT_EQ(result.state, PointState::pruned);
    EXPECT_EQ(result.reason, "The kernel uses 255 registers per thread; 1024 threads need 261120, more than 65536");
    EXPECT_FALSE(result.can_win());

    RunReport wrong;
    wrong.stage = Stage::done;
    wrong.kernel_ms.median = 0.5;
    wrong.check.passed = false;
    wrong.check.summary = "FAIL: 3 of 4096 elements of 'c' are wrong";
    result = point_result_from(target.space, point({"16"}), wrong);
    EXPECT_EQ(result.state, PointState::wrong);
    EXPECT_EQ(result.label, "tw=16");
    EXPECT_EQ(result.reason, "FAIL: 3 of 4096 elements of 'c' are wrong");
    EXPECT_FALSE(result.can_win());

    RunReport fault;
    fault.stage = Stage::run;
    fault.error = "CUDA_ERROR_ILLEGAL_ADDRESS while running matmul_k (grid 4,4,1, block 16,16,1): an illegal address\nmore";
    fault.error_code = ErrorCode::cuda_illegal_address;
    result = point_result_from(target.space, point({"16"}), fault);
    EXPECT_EQ(result.state, PointState::failed);
    EXPECT_EQ(result.reason, "CUDA_ERROR_ILLEGAL_ADDRESS while running matmul_k (grid 4,4,1, block 16,16,1): an illegal address");
}

TEST(SweepPointResult, AFaultAtATestSizeIsAFailureNotAWrongAnswer) {
    const SweepTarget target = target_of(kTiled, {"tw=8,16"});
    RunReport report;
    report.stage = Stage::done;
    report.kernel_ms.median = 0.5;
    report.check.passed = false;
    SizeCheck fine;
    fine.sizes = "1x1x1";
    fine.passed = true;
    SizeCheck fault;
    fault.sizes = "33x17x5";
    fault.summary = "thread (0,0,0) of block (0,0,0) wrote past the end of 'c'";
    fault.error_code = ErrorCode::out_of_bounds_write;
    report.check.sizes = {fine, fault};
    const PointResult result = point_result_from(target.space, point({"8"}), report);
    EXPECT_EQ(result.state, PointState::failed);
    EXPECT_EQ(result.reason, "KPLAY_OUT_OF_BOUNDS_WRITE at 33x17x5: thread (0,0,0) of block (0,0,0) wrote past the end of 'c'");
}

TEST(SweepCache, KeepsVerdictsAndResumesFromTheFile) {
    const auto dir = std::filesystem::temp_directory_path() / ("kplay-sweep-cache-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    const SweepTarget target = target_of(kTiled, {"tw=8,16"});
    const auto file = SweepCache::file_for(dir, target, RunRequest{});
    {
        SweepCache cache(file);
        PointResult passed;
        passed.label = "tw=8";
        passed.point = point({"8"});
        passed.state = PointState::passed;
        passed.median_ms = 1.25;
        passed.confirmed_ms = 1.3;  // never kept: each sweep re-times its winners
        cache.store(passed);
        PointResult failed = passed;
        failed.label = "tw=16";
        failed.state = PointState::failed;  // a failure may be the machine's: measured again
        cache.store(failed);
    }
    SweepCache again(file);
    EXPECT_EQ(again.size(), 1u);
    const auto found = again.find("tw=8");
    ASSERT_TRUE(found.has_value());
    EXPECT_DOUBLE_EQ(found->median_ms, 1.25);
    EXPECT_DOUBLE_EQ(found->confirmed_ms, 0);
    EXPECT_TRUE(found->from_cache);
    EXPECT_FALSE(again.find("tw=16").has_value());
    // Another size is another file.
    EXPECT_NE(SweepCache::file_for(dir, target_of(kTiled, {"tw=8,16"}, {}, "32x32x32"), RunRequest{}), file);
    std::filesystem::remove_all(dir);
}

TEST(SweepPlan, IntegerDefinesAreNamesTheLaterWinning) {
    const NamedValues names = integer_defines({{"BM", "64"}, {"TYPE", "float"}, {"BM", "128"}, {"X", "1"}, {"X", "fast"}});
    EXPECT_EQ(names, (NamedValues{{"BM", 128}}));
}

TEST(SweepPointResult, RoundTripsThroughJsonButTheConfirmRound) {
    PointResult result;
    result.point = point({"16"});
    result.label = "tw=16";
    result.state = PointState::wrong;
    result.reason = "at 1x1x1: FAIL";
    result.median_ms = 1.5;
    result.min_ms = 1.25;
    result.max_ms = 2;
    result.rate = 6350;
    result.unit = RateUnit::flops;
    result.percent_of_ceiling = 12.4;
    result.ceiling = "cuBLAS fp32";
    result.ceiling_rate = 51400;
    result.registers = 32;
    result.occupancy = 0.5;
    result.launch = "grid 4,4,1 block 16,16,1";
    result.confirm_ms = {1.5, 1.6};
    result.confirmed_ms = 1.55;
    const PointResult back = point_result_from_json(to_json(result));
    EXPECT_EQ(back.point, result.point);
    EXPECT_EQ(back.label, result.label);
    EXPECT_EQ(back.state, PointState::wrong);
    EXPECT_EQ(back.reason, result.reason);
    EXPECT_DOUBLE_EQ(back.median_ms, 1.5);
    EXPECT_DOUBLE_EQ(back.min_ms, 1.25);
    EXPECT_DOUBLE_EQ(back.max_ms, 2);
    EXPECT_DOUBLE_EQ(back.rate, 6350);
    EXPECT_EQ(back.unit, RateUnit::flops);
    EXPECT_DOUBLE_EQ(back.percent_of_ceiling, 12.4);
    EXPECT_EQ(back.ceiling, "cuBLAS fp32");
    EXPECT_DOUBLE_EQ(back.ceiling_rate, 51400);
    EXPECT_EQ(back.registers, 32);
    EXPECT_DOUBLE_EQ(back.occupancy, 0.5);
    EXPECT_EQ(back.launch, result.launch);
    EXPECT_TRUE(back.confirm_ms.empty());  // each sweep re-times its winners
    EXPECT_DOUBLE_EQ(back.confirmed_ms, 0);
    nlohmann::json broken = to_json(result);
    broken["state"] = "splendid";
    EXPECT_THROW(point_result_from_json(broken), nlohmann::json::exception);
}
