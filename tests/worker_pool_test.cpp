// A pool of workers, started for real on the emulated device: two local workers, two ssh "hosts" (the
// test sshd under two aliases), workers that the test Slurm places (scripts/test-slurm), a step of a
// user's allocation; and the members that do not come up (an unknown host, another protocol version, a
// Slurm job that never starts) while the others do. Nothing is left running or queued afterwards.
#include "client/worker_pool.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "base/subprocess.hpp"
#include "client/pool_spec.hpp"
#include "protocol/protocol.hpp"
#include "test_support.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

PoolOptions options_for(const test::WorkerCopy& worker, double timeout_s = 60) {
    PoolOptions options;
    options.base.worker_path = worker.path;
    options.remote_worker = worker.path.string();
    options.start_timeout_s = timeout_s;
    return options;
}

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

std::vector<std::string> wheres(const WorkerPool& pool) {
    std::vector<std::string> found;
    for (const PoolWorker& worker : pool.workers()) found.push_back(worker.where);
    return found;
}

std::string failures_of(const WorkerPool& pool) {
    std::string text;
    for (const PoolFailure& failure : pool.failures()) text += failure.member + ": " + failure.message + "\n";
    return text;
}

void expect_one_group_of(const WorkerPool& pool, size_t workers) {
    EXPECT_TRUE(pool.failures().empty()) << failures_of(pool);
    ASSERT_EQ(pool.groups().size(), 1u) << failures_of(pool);
    EXPECT_EQ(pool.groups()[0].workers.size(), workers);
    EXPECT_EQ(pool.workers().size(), workers);
}

// Every worker answers a request after the start: the pool holds live clients, not leftovers.
void expect_all_answer(WorkerPool& pool) {
    for (size_t i = 0; i < pool.workers().size(); ++i) {
        const WorkerResult pong = pool.client(i).wait(pool.client(i).submit_ping());
        EXPECT_TRUE(pong.ok()) << pool.workers()[i].where << ": " << pong.failure_message;
    }
}

// The settings of the test sshd or the test Slurm, or why there is none (a skip; a failure where the
// test script started them and requires their tests).
struct TestServer {
    std::string ssh_config, first_host, second_host;
    std::string slurm_conf, partition, never_partition;
    std::string missing;
};

TestServer ssh_setup() {
    TestServer setup;
    const char* config = std::getenv("KPLAY_TEST_SSH_CONFIG");
    const char* host = std::getenv("KPLAY_TEST_SSH_HOST");
    const char* second = std::getenv("KPLAY_TEST_SSH_HOST_2");
    if (!config || !*config || !host || !*host || !second || !*second)
        setup.missing = "no test sshd with two aliases: run `eval \"$(scripts/test-sshd)\"` first (.ci/run does)";
    else
        setup.ssh_config = config, setup.first_host = host, setup.second_host = second;
    return setup;
}

TestServer slurm_setup() {
    TestServer setup;
    const char* conf = std::getenv("KPLAY_TEST_SLURM_CONF");
    if (!conf || !*conf) {
        setup.missing = "no test Slurm: run `eval \"$(scripts/test-slurm)\"` first (scripts/test does, as root)";
        return setup;
    }
    setup.slurm_conf = conf;
    const char* partition = std::getenv("KPLAY_TEST_SLURM_PARTITION");
    const char* never = std::getenv("KPLAY_TEST_SLURM_NEVER_PARTITION");
    setup.partition = partition && *partition ? partition : "kplay";
    setup.never_partition = never && *never ? never : "kplay-never";
    setenv("SLURM_CONF", conf, 1);  // srun, squeue and scancel find the test cluster by it
    return setup;
}

#define KPLAY_NEED(setup, make, require)                   \
    const TestServer setup = make();                       \
    if (!setup.missing.empty()) {                          \
        if (std::getenv(require)) FAIL() << setup.missing; \
        GTEST_SKIP() << setup.missing;                     \
    }

// The ssh command for the test sshd (with an unknown host too: the user's own ssh config stays out).
struct SshCommand {
    explicit SshCommand(const std::string& config) { setenv("KPLAY_SSH_COMMAND", ("ssh -F " + config).c_str(), 1); }
    ~SshCommand() { unsetenv("KPLAY_SSH_COMMAND"); }
};

// This test process's workers in the test Slurm's queue (their job names carry its pid), one a line.
std::string our_queued_jobs() {
    const ProcessResult listed = run_process({"squeue", "--noheader", "--format=%A %j %T %r"}, 15);
    std::string ours;
    const std::string prefix = "kplay-worker-" + std::to_string(getpid()) + "-";
    std::istringstream lines(listed.output);
    for (std::string line; std::getline(lines, line);)
        if (line.find(prefix) != std::string::npos) ours += line + "\n";
    return ours;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(WorkerPool, TwoLocalWorkersOfOneDeviceAreOneGroupOfTwo) {
    test::WorkerCopy worker;
    {
        WorkerPool pool = WorkerPool::start(parse_pool({"local:2"}), options_for(worker));
        expect_one_group_of(pool, 2);
        EXPECT_EQ(wheres(pool), (std::vector<std::string>{"local", "local"}));
        EXPECT_EQ(pool.workers()[0].member, "local:2");
        expect_all_answer(pool);
        EXPECT_EQ(test::worker_processes(worker.path).size(), 2u);
    }
    EXPECT_TRUE(test::eventually([&] { return test::worker_processes(worker.path).empty(); }))
        << "the pool left its workers running";
}

TEST(WorkerPool, AMovedPoolKeepsItsWorkersAndTheOneMovedFromStopsNothing) {
    test::WorkerCopy worker;
    WorkerPool kept;
    {
        WorkerPool first = WorkerPool::start(parse_pool({"local:1"}), options_for(worker));
        ASSERT_EQ(first.workers().size(), 1u) << failures_of(first);
        kept = std::move(first);
    }
    ASSERT_EQ(kept.workers().size(), 1u);
    expect_all_answer(kept);
    kept = WorkerPool();
    EXPECT_TRUE(test::eventually([&] { return test::worker_processes(worker.path).empty(); }));
}

TEST(WorkerPool, SlowMembersStartSideBySide) {
    // Three commands that each take 1.5 s before their worker starts: one after another would take 4.5 s.
    test::WorkerCopy worker;
    const std::string slow = "cmd:sleep 1.5 && exec " + quoted(worker.path) + " --stdio";
    const auto start = std::chrono::steady_clock::now();
    WorkerPool pool = WorkerPool::start(parse_pool({slow, slow, slow}), options_for(worker));
    const double took = seconds_since(start);
    expect_one_group_of(pool, 3);
    EXPECT_LT(took, 4.0);
}

TEST(WorkerPool, AnUnknownHostFailsInSshsWordsAndALocalMemberStillComesUp) {
    if (find_in_path("ssh").empty()) GTEST_SKIP() << "no ssh client (openssh-client)";
    test::WorkerCopy worker;
    const char* config = std::getenv("KPLAY_TEST_SSH_CONFIG");
    std::optional<SshCommand> ssh;
    if (config && *config) ssh.emplace(config);
    WorkerPool pool = WorkerPool::start(parse_pool({"ssh:no-such-host.invalid,local"}), options_for(worker, 30));
    ASSERT_EQ(pool.failures().size(), 1u) << failures_of(pool);
    EXPECT_EQ(pool.failures()[0].member, "ssh:no-such-host.invalid");
    EXPECT_NE(pool.failures()[0].message.find(
                  "there is no host called no-such-host.invalid (ssh: Could not resolve hostname no-such-host.invalid"),
              std::string::npos)
        << pool.failures()[0].message;
    ASSERT_FALSE(pool.workers().empty());
    for (const PoolWorker& each : pool.workers()) EXPECT_EQ(each.member, "local");
    expect_all_answer(pool);
}

TEST(WorkerPool, AWorkerOfAnotherProtocolVersionIsSaidSoAndTheOthersComeUp) {
    test::WorkerCopy worker;
    WorkerPool pool = WorkerPool::start(
        parse_pool({"local:1", "cmd:" + quoted(KPLAY_TEST_FAKE_WORKER) + " --stdio-version 99"}), options_for(worker));
    ASSERT_EQ(pool.failures().size(), 1u) << failures_of(pool);
    EXPECT_NE(pool.failures()[0].message.find("speaks protocol version 99; this kplay speaks " +
                                              std::to_string(kProtocolVersion)),
              std::string::npos)
        << pool.failures()[0].message;
    EXPECT_EQ(pool.workers().size(), 1u);
}

TEST(WorkerPoolSsh, TwoAliasesOfTheTestSshdAreOneGroupOfTwo) {
    KPLAY_NEED(setup, ssh_setup, "KPLAY_REQUIRE_SSH_TESTS");
    test::WorkerCopy worker;
    {
        const SshCommand ssh(setup.ssh_config);
        WorkerPool pool = WorkerPool::start(parse_pool({"ssh:" + setup.first_host + ",ssh:" + setup.second_host}),
                                            options_for(worker));
        expect_one_group_of(pool, 2);
        EXPECT_EQ(wheres(pool), (std::vector<std::string>{setup.first_host, setup.second_host}));
        expect_all_answer(pool);
    }
    EXPECT_TRUE(test::eventually([&] { return test::worker_processes(worker.path).empty(); }, 10))
        << "left on the host";
}

TEST(WorkerPoolSlurm, TwoWorkersThatSlurmPlacesAreOneGroupOfTwoAndLeaveNoJob) {
    KPLAY_NEED(setup, slurm_setup, "KPLAY_REQUIRE_SLURM_TESTS");
    test::WorkerCopy worker;
    {
        WorkerPool pool = WorkerPool::start(parse_pool({"slurm:" + setup.partition + " x2"}), options_for(worker));
        expect_one_group_of(pool, 2);
        for (const std::string& where : wheres(pool)) EXPECT_NE(where.find(" (Slurm job "), std::string::npos) << where;
        const std::string jobs = our_queued_jobs();
        EXPECT_EQ(std::count(jobs.begin(), jobs.end(), '\n'), 2) << jobs;  // a job each, running
        expect_all_answer(pool);
    }
    EXPECT_TRUE(test::eventually([] { return our_queued_jobs().empty(); }, 15)) << our_queued_jobs();
    EXPECT_TRUE(test::eventually([&] { return test::worker_processes(worker.path).empty(); }, 10));
}

TEST(WorkerPoolSlurm, AJobThatNeverStartsIsCancelledWithSlurmsReason) {
    KPLAY_NEED(setup, slurm_setup, "KPLAY_REQUIRE_SLURM_TESTS");
    test::WorkerCopy worker;
    const auto start = std::chrono::steady_clock::now();
    WorkerPool pool =
        WorkerPool::start(parse_pool({"slurm:" + setup.never_partition, "local:1"}), options_for(worker, 3));
    EXPECT_LT(seconds_since(start), 20);
    ASSERT_EQ(pool.failures().size(), 1u) << failures_of(pool);
    EXPECT_EQ(pool.failures()[0].member, "slurm:" + setup.never_partition);
    const std::string& message = pool.failures()[0].message;
    EXPECT_NE(message.find("within 3 s (squeue's reason: PartitionDown); srun was stopped and the job cancelled"),
              std::string::npos)
        << message;
    EXPECT_EQ(pool.workers().size(), 1u);  // the local member came up all the same
    EXPECT_EQ(our_queued_jobs(), "");      // cancelled before the start returned
}

TEST(WorkerPoolSlurm, InsideAnAllocationTheWorkersAreStepsOfIt) {
    KPLAY_NEED(setup, slurm_setup, "KPLAY_REQUIRE_SLURM_TESTS");
    test::WorkerCopy worker;
    // The user's allocation: two GPUs and two tasks' CPUs, held by a batch job that only sleeps.
    const ProcessResult submitted =
        run_process({"sbatch", "--parsable", "--partition=" + setup.partition, "--gres=gpu:2", "--ntasks=2",
                     "--job-name=kplay-test-allocation", "--output=/dev/null", "--wrap=sleep 300"},
                    15);
    ASSERT_EQ(submitted.exit_code, 0) << submitted.output;
    const std::string job = submitted.output.substr(0, submitted.output.find_first_of(";\n"));
    const bool running = test::eventually(
        [&] {
            return run_process({"squeue", "--noheader", "--format=%T", "--jobs=" + job}, 15)
                       .output.rfind("RUNNING", 0) == 0;
        },
        20);
    std::vector<std::string> places;
    size_t groups = 0;
    std::string failures;
    if (running) {
        setenv("SLURM_JOB_ID", job.c_str(), 1);
        WorkerPool pool = WorkerPool::start(parse_pool({"slurm x2"}), options_for(worker));
        unsetenv("SLURM_JOB_ID");
        places = wheres(pool);
        groups = pool.groups().size();
        failures = failures_of(pool);
        expect_all_answer(pool);
    }
    (void)run_process({"scancel", job}, 15);
    ASSERT_TRUE(running) << "the allocation " << job << " did not start";
    EXPECT_EQ(failures, "");
    EXPECT_EQ(groups, 1u);
    ASSERT_EQ(places.size(), 2u);
    for (const std::string& where : places)
        EXPECT_NE(where.find("(a step of Slurm job " + job + ")"), std::string::npos) << where;
}
