// Sweeps end to end on the emulated device, through the real kplay-worker: a point that is wrong (and
// faster) never wins, a point that faults costs that point only, an interrupted sweep resumes from its
// cache, and cancel stops the worker at once.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

#include "client/worker_client.hpp"
#include "kernel_file/source_scan.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_table.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

std::filesystem::path data_file(const std::string& name) { return std::filesystem::path(KPLAY_TEST_DATA_DIR) / "sweep" / name; }

WorkerOptions worker_options() {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.extra_environment = {"KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1"};  // the emulated device on every machine
    return options;
}

DeviceQuery query_devices() {
    WorkerClient client(worker_options());
    return client.wait(client.submit_devices()).devices;
}

// The file's own sweep, on the emulated device, cached under `cache`.
std::unique_ptr<Sweep> sweep_of(const std::string& name, const test::TempDir& cache, SweepOptions options = {}, double timeout_s = 10) {
    const auto file = data_file(name);
    const std::string source = read_source_file(file);
    SweepTarget target = make_sweep_target(file, source, *find_sweep_lines(source, file.string()), query_devices(), true, 0, "");
    options.cache_dir = cache.path();
    RunRequest base;
    base.emulation_workers = 2;
    base.emulation_timeout_s = timeout_s;
    return std::make_unique<Sweep>(std::move(target), base, options, worker_options());
}

void run_to_end(Sweep& sweep) {
    while (!sweep.finished()) sweep.update(true);
}

const PointResult& result_of(const Sweep& sweep, const std::string& label) {
    for (const PointResult& result : sweep.results())
        if (result.label == label) return result;
    throw std::runtime_error("no point " + label);
}

}  // namespace

TEST(SweepEmulated, AWrongPointNeverWinsHoweverFastItIs) {
    test::TempDir cache;
    auto sweep = sweep_of("wrong_when_fast.cu", cache);
    run_to_end(*sweep);
    ASSERT_EQ(sweep->problem(), "");
    ASSERT_EQ(sweep->results().size(), 5u);
    for (const char* label : {"block_x=64", "block_x=128", "block_x=256"}) EXPECT_EQ(result_of(*sweep, label).state, PointState::passed) << label;
    for (const char* label : {"block_x=512", "block_x=1024"}) {
        const PointResult& wrong = result_of(*sweep, label);
        EXPECT_EQ(wrong.state, PointState::wrong) << label;
        EXPECT_NE(wrong.reason.find("never written"), std::string::npos) << wrong.reason;
        EXPECT_GT(wrong.median_ms, 0);  // timed, and still out of the running
    }
    ASSERT_TRUE(sweep->best().has_value());
    const PointResult& best = sweep->results()[*sweep->best()];
    EXPECT_EQ(best.state, PointState::passed);
    // The confirm round re-timed the three correct points, three rounds each.
    EXPECT_EQ(best.confirm_ms.size(), 3u);
    EXPECT_GT(best.confirmed_ms, 0);
    EXPECT_EQ(sweep->runs_done(), 5 + 9);
    const std::string table = format_sweep_table(*sweep);
    EXPECT_NE(table.find("PASS  <- best"), std::string::npos) << table;
    EXPECT_NE(table.find("WRONG: at 1000: FAIL: 488 of 1000 elements of 'y' are wrong (488 never written)"), std::string::npos) << table;
    EXPECT_NE(table.find("emulated: these times are CPU wall time"), std::string::npos);
    const nlohmann::json json = sweep_json(*sweep);
    EXPECT_EQ(json.at("best"), best.label);
    EXPECT_EQ(json.at("points").size(), 5u);
    EXPECT_EQ(json.at("points").at(0).at("state"), "passed");
}

TEST(SweepEmulated, AFaultCostsThatPointAndTheNextRunsOnAFreshWorker) {
    test::TempDir cache;
    SweepOptions options;
    options.confirm_top = 0;
    auto sweep = sweep_of("faults_at_128.cu", cache, options);
    run_to_end(*sweep);
    const PointResult& fault = result_of(*sweep, "block_x=128");
    EXPECT_EQ(fault.state, PointState::failed);
    EXPECT_NE(fault.reason.find("faults_at_128.cu:16"), std::string::npos) << fault.reason;
    EXPECT_EQ(result_of(*sweep, "block_x=64").state, PointState::passed);
    EXPECT_EQ(result_of(*sweep, "block_x=256").state, PointState::passed);
    EXPECT_EQ(sweep->problem(), "");
}

TEST(SweepEmulated, AHangIsStoppedByTheWatchdogAndTheSweepGoesOn) {
    test::TempDir cache;
    SweepOptions options;
    options.confirm_top = 0;
    auto sweep = sweep_of("hangs_at_128.cu", cache, options, /*timeout_s=*/1);
    run_to_end(*sweep);
    const PointResult& hang = result_of(*sweep, "block_x=128");
    EXPECT_EQ(hang.state, PointState::failed);
    EXPECT_NE(hang.reason.find("KPLAY_TIMEOUT"), std::string::npos) << hang.reason;
    EXPECT_EQ(result_of(*sweep, "block_x=64").state, PointState::passed);
    EXPECT_EQ(result_of(*sweep, "block_x=256").state, PointState::passed);
    EXPECT_EQ(sweep->problem(), "");
}

TEST(SweepEmulated, AnInterruptedSweepResumesFromItsCache) {
    test::TempDir cache;
    SweepOptions first;
    first.budget_points = 2;
    first.confirm_top = 0;
    {
        auto sweep = sweep_of("wrong_when_fast.cu", cache, first);
        run_to_end(*sweep);
        EXPECT_EQ(sweep->results().size(), 2u);
        EXPECT_EQ(sweep->from_cache(), 0);
    }
    SweepOptions again;
    again.confirm_top = 0;
    auto sweep = sweep_of("wrong_when_fast.cu", cache, again);
    run_to_end(*sweep);
    EXPECT_EQ(sweep->results().size(), 5u);
    EXPECT_EQ(sweep->from_cache(), 2);
    EXPECT_TRUE(result_of(*sweep, "block_x=64").from_cache);
    EXPECT_TRUE(result_of(*sweep, "block_x=128").from_cache);
    EXPECT_FALSE(result_of(*sweep, "block_x=256").from_cache);
    EXPECT_EQ(sweep->runs_done(), 3);  // only the points the first sweep did not reach ran
}

TEST(SweepEmulated, CancelStopsTheWorkerAtOnceAndKeepsWhatFinished) {
    test::TempDir cache;
    SweepOptions options;
    options.use_cache = false;
    auto sweep = sweep_of("wrong_when_fast.cu", cache, options);
    while (sweep->results().empty() || sweep->results().back().state == PointState::pending) sweep->update(true);
    sweep->update();  // the second point goes out
    ASSERT_FALSE(sweep->running().empty());
    const pid_t worker = sweep->worker_pid();
    ASSERT_GT(worker, 0);
    const auto start = std::chrono::steady_clock::now();
    sweep->cancel();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
    EXPECT_EQ(sweep->phase(), SweepPhase::cancelled);
    EXPECT_TRUE(sweep->finished());
    EXPECT_EQ(::kill(worker, 0), -1);  // stopped and reaped
    EXPECT_EQ(sweep->worker_pid(), 0);
    EXPECT_EQ(sweep->results().front().state, PointState::passed);
    EXPECT_FALSE(sweep->update(true));  // nothing more happens
    EXPECT_NE(format_sweep_table(*sweep).find("cancelled"), std::string::npos);
}

TEST(SweepEmulated, ARandomSweepTakesItsBudgetInTheSeedsOrder) {
    test::TempDir cache;
    SweepOptions options;
    options.strategy = SweepStrategy::random;
    options.budget_points = 2;
    options.confirm_top = 0;
    options.use_cache = false;
    std::vector<std::string> first, again;
    for (auto* labels : {&first, &again}) {
        auto sweep = sweep_of("wrong_when_fast.cu", cache, options);
        run_to_end(*sweep);
        for (const PointResult& result : sweep->results()) labels->push_back(result.label);
    }
    EXPECT_EQ(first.size(), 2u);
    EXPECT_EQ(first, again);  // the same seed, the same points
    EXPECT_NE(first, (std::vector<std::string>{"block_x=64", "block_x=128"})) << "seed 1 happens to give the exhaustive order";
}
