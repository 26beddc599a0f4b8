// Sweeps spread over the workers of a pool, for real on the emulated device: every point runs once
// across two local workers and the winner is the one-worker sweep's; a worker killed mid-point costs
// that point only; a member that never comes up leaves the sweep to the others; a worker that cannot
// be replaced has its point sent to another and the sweep says so; and a sweep over workers that the
// test Slurm places (scripts/test-slurm).
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <set>

#include "client/pool_spec.hpp"
#include "client/worker_pool.hpp"
#include "kernel_file/source_scan.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_table.hpp"
#include "test_support.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

fs::path data_file(const std::string& name) { return fs::path(KPLAY_TEST_DATA_DIR) / "sweep" / name; }
std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

PoolOptions pool_options(const test::WorkerCopy& worker) {
    PoolOptions options;
    options.base.worker_path = worker.path;
    options.base.extra_environment = {"KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1"};  // the emulated device everywhere
    options.remote_worker = worker.path.string();
    options.start_timeout_s = 60;
    return options;
}

// The workers of the pool's first group, as a sweep takes them.
std::vector<SweepWorker> group_workers(WorkerPool& pool) {
    std::vector<SweepWorker> workers;
    if (pool.groups().empty()) return workers;
    for (const size_t i : pool.groups()[0].workers)
        workers.push_back(SweepWorker{pool.workers()[i].where, pool.take_client(i)});
    return workers;
}

// The file's own sweep on the emulated device, cached under `cache`, on `workers`.
std::unique_ptr<Sweep> sweep_of(const std::string& name, const test::TempDir& cache, std::vector<SweepWorker> workers) {
    const fs::path file = data_file(name);
    const std::string source = read_source_file(file);
    WorkerClient& first = *workers.front().client;
    const DeviceQuery devices = first.wait(first.submit_devices()).devices;
    SweepTarget target =
        make_sweep_target(file, source, *find_sweep_lines(source, file.string()), devices, true, 0, "");
    SweepOptions options;
    options.cache_dir = cache.path();
    RunRequest base;
    base.emulation_workers = 1;
    base.emulation_timeout_s = 20;
    return std::make_unique<Sweep>(std::move(target), base, options, std::move(workers));
}

void run_to_end(Sweep& sweep) {
    while (!sweep.finished()) sweep.update(true);
}

std::string winner(const Sweep& sweep) { return sweep.best() ? sweep.results()[*sweep.best()].label : "(none)"; }

// Each point of the space taken up once, and each that ran on exactly one worker.
void expect_every_point_once(const Sweep& sweep, size_t points) {
    std::set<std::string> labels;
    for (const PointResult& result : sweep.results())
        EXPECT_TRUE(labels.insert(result.label).second) << result.label << " twice";
    EXPECT_EQ(labels.size(), points);
    int run = 0;
    for (const SweepWorkerStatus& worker : sweep.workers()) run += worker.points_run;
    EXPECT_EQ(run, static_cast<int>(points)) << format_sweep_table(sweep);
}

}  // namespace

TEST(SweepPool, TwoLocalWorkersRunEveryPointOnceAndPickTheOneWorkersWinner) {
    test::WorkerCopy worker;
    test::TempDir one_cache, two_cache;
    WorkerPool single = WorkerPool::start(parse_pool({"local:1"}), pool_options(worker));
    auto alone = sweep_of("fastest_at_256.cu", one_cache, group_workers(single));
    run_to_end(*alone);
    ASSERT_EQ(alone->problem(), "");
    WorkerPool pool = WorkerPool::start(parse_pool({"local:2"}), pool_options(worker));
    ASSERT_EQ(pool.workers().size(), 2u);
    auto sweep = sweep_of("fastest_at_256.cu", two_cache, group_workers(pool));
    run_to_end(*sweep);
    ASSERT_EQ(sweep->problem(), "");
    expect_every_point_once(*sweep, 6);
    ASSERT_EQ(sweep->workers().size(), 2u);
    for (const SweepWorkerStatus& status : sweep->workers())
        EXPECT_GT(status.points_run, 0) << status.name << " ran no point";
    EXPECT_GT(sweep->workers()[0].confirm_runs, 0);
    EXPECT_EQ(sweep->workers()[1].confirm_runs, 0) << "the confirm round runs on one worker";
    for (size_t i = 0; i < sweep->results().size(); ++i)
        EXPECT_TRUE(sweep->worker_of(i).has_value()) << sweep->results()[i].label;
    EXPECT_EQ(winner(*sweep), "block_x=256");
    EXPECT_EQ(winner(*sweep), winner(*alone));
    const std::string table = format_sweep_table(*sweep);
    EXPECT_NE(table.find("  worker 2 (local): 3 points, 0 confirm runs\n"), std::string::npos) << table;
    EXPECT_EQ(sweep_json(*sweep)["workers"].size(), 2u);
}

TEST(SweepPool, AWorkerKilledMidPointCostsThatPointAndTheSweepFinishes) {
    test::WorkerCopy worker;
    test::TempDir cache;
    WorkerPool pool = WorkerPool::start(parse_pool({"local:2"}), pool_options(worker));
    ASSERT_EQ(pool.workers().size(), 2u);
    auto sweep = sweep_of("fastest_at_256.cu", cache, group_workers(pool));
    // Kill worker 2 once it holds a point: that point fails as a crash, its client starts a new worker.
    std::string killed;
    while (!sweep->finished()) {
        sweep->update(false);
        if (killed.empty() && !sweep->workers()[1].running.empty() && sweep->worker_pid(1) > 0) {
            killed = sweep->workers()[1].running;
            ASSERT_EQ(::kill(sweep->worker_pid(1), SIGKILL), 0);
        }
        usleep(5000);
    }
    ASSERT_FALSE(killed.empty());
    EXPECT_EQ(sweep->problem(), "");
    EXPECT_TRUE(sweep->notes().empty()) << "a replaced worker does not drop out";
    int failed = 0, passed = 0;
    for (const PointResult& result : sweep->results()) {
        if (result.state == PointState::failed) {
            ++failed;
            EXPECT_EQ(result.label, killed);
            EXPECT_FALSE(result.reason.empty());
        }
        passed += result.state == PointState::passed;
    }
    EXPECT_EQ(failed, 1) << format_sweep_table(*sweep);
    EXPECT_EQ(passed, 5) << format_sweep_table(*sweep);
}

TEST(SweepPool, AMemberThatNeverComesUpLeavesTheSweepToTheOthers) {
    test::WorkerCopy worker;
    test::TempDir cache;
    WorkerPool pool = WorkerPool::start(
        parse_pool({"local:1", "cmd:" + quoted(KPLAY_TEST_FAKE_WORKER) + " --mode exit-at-start --always"}),
        pool_options(worker));
    ASSERT_EQ(pool.failures().size(), 1u);
    EXPECT_EQ(pool.failures()[0].member.rfind("cmd:", 0), 0u);
    EXPECT_FALSE(pool.failures()[0].message.empty());
    ASSERT_EQ(pool.workers().size(), 1u);
    auto sweep = sweep_of("fastest_at_256.cu", cache, group_workers(pool));
    run_to_end(*sweep);
    EXPECT_EQ(sweep->problem(), "");
    expect_every_point_once(*sweep, 6);
    EXPECT_EQ(winner(*sweep), "block_x=256");
}

TEST(SweepPool, AWorkerThatCannotBeReplacedHasItsPointSentToAnother) {
    // Worker 2 comes up once; killed, every restart of it fails (as a host that dropped out), so its
    // client gives up and its point runs on worker 1.
    test::WorkerCopy worker;
    test::TempDir cache, marker;
    const fs::path once = marker.path() / "started";
    const std::string flaky = "cmd:sh -c 'test -e " + once.string() + " && exit 1; touch " + once.string() + "; exec " +
                              worker.path.string() + " --stdio'";
    PoolOptions options = pool_options(worker);
    WorkerPool pool = WorkerPool::start(parse_pool({"local:1", flaky}), options);
    ASSERT_EQ(pool.workers().size(), 2u) << (pool.failures().empty() ? "" : pool.failures()[0].message);
    ASSERT_EQ(pool.groups().size(), 1u);
    auto sweep = sweep_of("fastest_at_256.cu", cache, group_workers(pool));
    bool killed = false;
    while (!sweep->finished()) {
        sweep->update(false);
        if (!killed && !sweep->workers()[1].running.empty() && sweep->worker_pid(1) > 0) {
            killed = ::kill(sweep->worker_pid(1), SIGKILL) == 0;
        }
        usleep(5000);
    }
    ASSERT_TRUE(killed);
    EXPECT_EQ(sweep->problem(), "");
    ASSERT_EQ(sweep->notes().size(), 1u) << format_sweep_table(*sweep);
    EXPECT_NE(sweep->notes()[0].find("worker 2 ("), std::string::npos) << sweep->notes()[0];
    EXPECT_NE(sweep->notes()[0].find("dropped out after"), std::string::npos) << sweep->notes()[0];
    EXPECT_NE(sweep->notes()[0].find("its points go to the other 1"), std::string::npos) << sweep->notes()[0];
    EXPECT_TRUE(sweep->workers()[1].dropped);
    // The killed point crashed (that costs it, as any crash does); every other point ran on a worker.
    int failed = 0;
    for (const PointResult& result : sweep->results()) failed += result.state == PointState::failed;
    EXPECT_LE(failed, 1) << format_sweep_table(*sweep);
    EXPECT_EQ(winner(*sweep), "block_x=256");
}

TEST(SweepPoolSlurm, TwoWorkersThatSlurmPlacesSweepTogether) {
    const char* conf = std::getenv("KPLAY_TEST_SLURM_CONF");
    if (!conf || !*conf) {
        const char* why = "no test Slurm: run `eval \"$(scripts/test-slurm)\"` first (scripts/test does, as root)";
        if (std::getenv("KPLAY_REQUIRE_SLURM_TESTS")) FAIL() << why;
        GTEST_SKIP() << why;
    }
    setenv("SLURM_CONF", conf, 1);
    const char* partition = std::getenv("KPLAY_TEST_SLURM_PARTITION");
    const std::string name = partition && *partition ? partition : "kplay";
    test::WorkerCopy worker;
    test::TempDir cache;
    {
        WorkerPool pool = WorkerPool::start(parse_pool({"slurm:" + name + " x2"}), pool_options(worker));
        ASSERT_EQ(pool.workers().size(), 2u) << (pool.failures().empty() ? "" : pool.failures()[0].message);
        auto sweep = sweep_of("fastest_at_256.cu", cache, group_workers(pool));
        run_to_end(*sweep);
        EXPECT_EQ(sweep->problem(), "");
        expect_every_point_once(*sweep, 6);
        for (const SweepWorkerStatus& status : sweep->workers()) EXPECT_GT(status.points_run, 0) << status.name;
        EXPECT_EQ(winner(*sweep), "block_x=256");
    }
}
