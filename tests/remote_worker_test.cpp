// A worker on "another machine": through --remote-command (a local `kplay-worker --stdio`, a delaying
// proxy) and through ssh to the test sshd that scripts/test-sshd starts on 127.0.0.1. On the emulated
// device, so no GPU is needed: a run, a compile error, faults, an endless loop and a crash survived by
// the host's supervisor, a killed connection, another protocol version, a missing remote binary, and
// no process left behind or growing.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "client/worker_client.hpp"
#include "client/remote_target.hpp"
#include "session/kernel_session.hpp"
#include "test_support.hpp"
#include "error_code_names.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

using test::eventually;
using test::WorkerCopy;
pid_t parent_of(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(text.substr(close + 2));
    char state;
    pid_t parent = 0;
    rest >> state >> parent;
    return parent;
}

// The workers a supervisor started: children of a process of `exe` that is not one itself (the
// emulated device's own helper processes are the workers' children).
std::vector<pid_t> inner_workers_of(const fs::path& exe) {
    const std::vector<pid_t> all = test::worker_processes(exe);
    std::vector<pid_t> found;
    for (pid_t pid : all) {
        const pid_t parent = parent_of(pid);
        if (std::find(all.begin(), all.end(), parent) == all.end()) continue;  // the supervisor itself
        if (std::find(all.begin(), all.end(), parent_of(parent)) != all.end()) continue;  // a worker's child
        found.push_back(pid);
    }
    return found;
}

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

WorkerOptions stdio_options(const fs::path& worker) {
    WorkerOptions options;
    options.remote = command_target(quoted(worker) + " --stdio");
    return options;
}

RunRequest seed_run() { return test::quick_seed_run(); }

RunRequest fault_run(const std::string& name) {
    RunRequest request = seed_run();
    request.kernel_path = test::kernels_dir() / "faults" / name;
    return request;
}

// Submits the endless loop (the emulator's own limit far off) and returns once it spins on the host;
// 0 when it never got there.
uint64_t start_spinning(WorkerClient& client) {
    RunRequest request = fault_run("04_endless_loop.cu");
    request.emulation_timeout_s = 120;
    const uint64_t id = client.submit_run(request);
    // The emulated device's launches are CPU work (Phase::cpu, under the CPU time limit); the inputs and
    // the reference before them take milliseconds at this size, so a moment later the kernel spins.
    const bool spinning = eventually([&] {
        (void)client.poll();
        return client.phase() == Phase::cpu;
    }, 30);
    if (spinning) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return spinning ? id : 0;
}

void expect_good_run(WorkerClient& client) {
    const WorkerResult result = client.wait(client.submit_run(seed_run()));
    ASSERT_TRUE(result.ok()) << result.failure_message;
    EXPECT_EQ(result.run.stage, Stage::done) << result.run.error;
    EXPECT_TRUE(result.run.check.passed);
}

// The test sshd's settings, or why there is none (a skip; a failure where CI requires it).
struct SshSetup {
    std::string host, config, missing;
};
SshSetup ssh_setup() {
    SshSetup setup;
    const char* host = std::getenv("KPLAY_TEST_SSH_HOST");
    const char* config = std::getenv("KPLAY_TEST_SSH_CONFIG");
    if (!host || !*host || !config || !*config)
        setup.missing = "no test sshd: run `eval \"$(scripts/test-sshd)\"` first (.ci/run does)";
    else
        setup.host = host, setup.config = config;
    return setup;
}

#define KPLAY_NEED_SSH(setup)                                                               \
    const SshSetup setup = ssh_setup();                                                     \
    if (!setup.missing.empty()) {                                                           \
        if (std::getenv("KPLAY_REQUIRE_SSH_TESTS")) FAIL() << setup.missing;               \
        GTEST_SKIP() << setup.missing;                                                      \
    }

WorkerOptions ssh_options(const SshSetup& setup, const fs::path& worker, const std::string& extra_ssh = "") {
    setenv("KPLAY_SSH_COMMAND", ("ssh -F " + setup.config + (extra_ssh.empty() ? "" : " " + extra_ssh)).c_str(), 1);
    WorkerOptions options;
    options.remote = ssh_target(setup.host, worker.string());
    unsetenv("KPLAY_SSH_COMMAND");
    return options;
}

}  // namespace

TEST(RemoteWorker, RunsTheSeedKernelAndSaysHowTheLinkIs) {
    WorkerCopy worker;
    WorkerClient client(stdio_options(worker.path));
    RunRequest request = seed_run();
    request.keep_outputs = true;
    const WorkerResult result = client.wait(client.submit_run(request));
    ASSERT_TRUE(result.ok()) << result.failure_message;
    EXPECT_EQ(result.run.stage, Stage::done) << result.run.error;
    EXPECT_TRUE(result.run.emulated);
    EXPECT_TRUE(result.run.check.passed);
    // The output came back inline and was turned into the same view a local run makes.
    EXPECT_EQ(result.run.view.output.size(), size_t{96 * 64});
    // The report names the client's file, not the host's private copy of it.
    EXPECT_EQ(result.run.file, request.kernel_path.string());
    const RemoteStatus& link = client.remote_status();
    EXPECT_TRUE(link.connected);
    EXPECT_EQ(link.connections, 1);
    EXPECT_GT(link.connect_ms, 0);
    EXPECT_GE(result.link_ms, 0);
    EXPECT_LT(result.link_ms, result.elapsed_ms);
    EXPECT_GT(link.bytes_sent, 1000u);  // the kernel's text travelled with the request
    EXPECT_GT(link.bytes_received, 1000u);
    EXPECT_EQ(inner_workers_of(worker.path).size(), 1u);  // the supervisor's one worker
}

// Through the host's supervisor: a downsampled view's full resolution comes from the worker that ran it.
TEST(RemoteWorker, ADownsampledViewsFullResolutionComesThroughTheSupervisor) {
    WorkerCopy worker;
    WorkerClient client(stdio_options(worker.path));
    RunRequest request = seed_run();
    request.keep_outputs = true;
    request.view_side = 48;
    const WorkerResult shown = client.wait(client.submit_run(request));
    ASSERT_TRUE(shown.ok()) << shown.failure_message;
    ASSERT_EQ(shown.run.stage, Stage::done) << shown.run.error;
    EXPECT_EQ(shown.run.view.step, 2);
    EXPECT_EQ(shown.run.view.output.size(), size_t{48 * 32});
    const WorkerResult full = client.wait(client.submit_view(shown.run.view.full_view_key, false));
    ASSERT_TRUE(full.ok()) << full.failure_message;
    EXPECT_TRUE(full.run.error.empty()) << full.run.error;
    EXPECT_EQ(full.run.view.step, 1);
    EXPECT_EQ(full.run.view.output.size(), size_t{96 * 64});
    EXPECT_EQ(full.run.view.map.size(), size_t{96 * 64});
}

// The cut goes past the host's supervisor to the worker running the run, never queued behind it.
TEST(RemoteWorker, AnOvertakenRunIsCutShortThroughTheSupervisor) {
    WorkerCopy worker;
    WorkerClient client(stdio_options(worker.path));
    test::expect_a_run_cut_short(client);
}

TEST(RemoteWorker, TheKernelsHeadersAndImageTravelWithTheRun) {
    WorkerCopy worker;
    test::TempDir files;
    // A kernel in a folder of the user's, with a header beside it and an image of its own.
    const fs::path header = files.write("my_gray.h", "__device__ inline unsigned char my_gray(unsigned char r, unsigned char g, unsigned char b) {\n"
                                                     "    return (unsigned char)(0.299f * r + 0.587f * g + 0.114f * b);\n}\n");
    std::string kernel = test::read_file(test::kernels_dir() / "grayscale/01_seed_1d.cu");
    kernel = "#include \"my_gray.h\"\n" + kernel;
    const fs::path path = files.write("mine.cu", kernel);
    std::vector<unsigned short> rgb(3 * 40 * 30);
    for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<unsigned short>((i * 977) % 65535);
    const fs::path image = files.write("photo.png", test::encode_png16_rgb(40, 30, rgb.data()));
    WorkerClient client(stdio_options(worker.path));
    RunRequest request = seed_run();
    request.kernel_path = path;
    request.inputs.size.clear();
    request.inputs.image_path = image.string();
    request.keep_outputs = true;
    const WorkerResult first = client.wait(client.submit_run(request));
    ASSERT_TRUE(first.ok()) << first.failure_message;
    ASSERT_EQ(first.run.stage, Stage::done) << first.run.error;
    EXPECT_EQ(first.run.view.width, 40);
    EXPECT_EQ(first.run.view.height, 30);
    const uint64_t sent_once = client.remote_status().bytes_sent;
    // The same image again is named by its hash, not sent again.
    const WorkerResult second = client.wait(client.submit_run(request));
    ASSERT_TRUE(second.ok()) << second.failure_message;
    EXPECT_EQ(second.run.stage, Stage::done) << second.run.error;
    EXPECT_LT(client.remote_status().bytes_sent - sent_once, sent_once);
    (void)header;
}

// A relative path is the client's: the host starts elsewhere (here `cd /`, as ssh starts in the user's
// home there), and the kernel must still be the one the user named, from the checkout's root and from
// inside the kernel's folder.
TEST(RemoteWorker, ARelativePathIsTheClientsFromTheRootAndFromInsideTheFolder) {
    WorkerCopy worker;
    WorkerOptions options;
    options.remote = command_target("cd / && exec " + quoted(worker.path) + " --stdio");
    WorkerClient client(options);
    const fs::path before = fs::current_path();
    const fs::path kernel = test::kernels_dir() / "grayscale/01_seed_1d.cu";
    for (const auto& [folder, relative] : {std::pair{kernel.parent_path().parent_path().parent_path(), fs::path("kernels_src/grayscale/01_seed_1d.cu")},
                                           std::pair{kernel.parent_path(), fs::path("01_seed_1d.cu")}}) {
        SCOPED_TRACE(folder.string());
        fs::current_path(folder);
        RunRequest request = seed_run();
        request.kernel_path = relative;
        const WorkerResult result = client.wait(client.submit_run(request));
        fs::current_path(before);
        ASSERT_TRUE(result.ok()) << result.failure_message;
        EXPECT_EQ(result.run.stage, Stage::done) << result.run.error;
        EXPECT_TRUE(result.run.check.passed);
    }
}

TEST(RemoteWorker, ACompileErrorComesBackWithItsDiagnostics) {
    WorkerCopy worker;
    WorkerClient client(stdio_options(worker.path));
    const WorkerResult result = client.wait(client.submit_run(fault_run("11_syntax_error.cu")));
    ASSERT_TRUE(result.ok()) << result.failure_message;
    EXPECT_EQ(result.run.stage, Stage::compile);
    ASSERT_FALSE(result.run.compile.diagnostics.empty());
    EXPECT_EQ(result.run.compile.diagnostics.front().file, (test::kernels_dir() / "faults/11_syntax_error.cu").string());
    expect_good_run(client);
}

TEST(RemoteWorker, ABoundsFaultIsReportedAndTheNextRunIsCorrect) {
    WorkerCopy worker;
    WorkerClient client(stdio_options(worker.path));
    const WorkerResult result = client.wait(client.submit_run(fault_run("01_out_of_bounds_write.cu")));
    ASSERT_TRUE(result.ok()) << result.failure_message;
    EXPECT_EQ(result.run.stage, Stage::run);
    EXPECT_EQ(result.run.error_code, "CUDA_ERROR_ILLEGAL_ADDRESS") << result.run.error;
    expect_good_run(client);
    EXPECT_EQ(client.remote_status().connections, 1);
}

TEST(RemoteWorker, AnEndlessLoopIsStoppedByTheHostsWatchdogAndTheConnectionLives) {
    WorkerCopy worker;
    WorkerOptions options = stdio_options(worker.path);
    options.cpu_timeout_s = 1;  // the emulated device's launches count as CPU time
    WorkerClient client(options);
    RunRequest request = fault_run("04_endless_loop.cu");
    request.emulation_timeout_s = 120;  // the emulator's own limit must not be what stops it
    const WorkerResult result = client.wait(client.submit_run(request));
    EXPECT_EQ(result.failure, WorkerFailure::timeout);
    EXPECT_NE(result.failure_message.find("the emulated device's launch) within 1 s"), std::string::npos) << result.failure_message;
    EXPECT_EQ(result.run.error_code, "KPLAY_TIMEOUT");
    expect_good_run(client);
    EXPECT_EQ(client.remote_status().connections, 1);  // the host's supervisor replaced its worker, not the link
}

TEST(RemoteWorker, AWorkerCrashOnTheHostIsSurvived) {
    WorkerCopy worker;
    WorkerOptions options = stdio_options(worker.path);
    options.run_timeout_s = 60;
    WorkerClient client(options);
    expect_good_run(client);
    // Once the kernel spins, the host's worker dies under it.
    const uint64_t id = start_spinning(client);
    ASSERT_NE(id, 0u);
    const std::vector<pid_t> inner = inner_workers_of(worker.path);
    ASSERT_EQ(inner.size(), 1u);
    kill(inner[0], SIGKILL);
    const WorkerResult result = client.wait(id);
    EXPECT_EQ(result.failure, WorkerFailure::crashed);
    EXPECT_NE(result.failure_message.find("killed by signal 9 (KILL)"), std::string::npos) << result.failure_message;
    expect_good_run(client);
    EXPECT_EQ(client.remote_status().connections, 1);
}

TEST(RemoteWorker, AKilledConnectionIsReportedAndTheNextRunReconnects) {
    WorkerCopy worker;
    WorkerOptions options = stdio_options(worker.path);
    options.run_timeout_s = 60;
    {
        WorkerClient client(options);
        expect_good_run(client);
        const uint64_t id = start_spinning(client);
        ASSERT_NE(id, 0u);
        kill(client.worker_pid(), SIGKILL);  // the local end of the link: ssh, here the command
        const WorkerResult result = client.wait(id);
        EXPECT_EQ(result.failure, WorkerFailure::disconnected);
        EXPECT_NE(result.failure_message.find("The next run reconnects"), std::string::npos) << result.failure_message;
        // Nothing of the old connection is left running on the "host".
        EXPECT_TRUE(eventually([&] { return test::worker_processes(worker.path).empty(); })) << test::worker_processes(worker.path).size();
        expect_good_run(client);
        EXPECT_EQ(client.remote_status().connections, 2);
    }
    // And the client's exit leaves nothing either.
    EXPECT_TRUE(eventually([&] { return test::worker_processes(worker.path).empty(); }));
}

TEST(RemoteWorker, AnotherProtocolVersionIsRefusedWithHowToUpdate) {
    WorkerOptions options;
    options.remote = command_target(quoted(KPLAY_TEST_FAKE_WORKER) + " --stdio-version 99");
    WorkerClient client(options);
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_EQ(result.failure, WorkerFailure::protocol);
    EXPECT_NE(result.failure_message.find("speaks protocol version 99; this kplay speaks " + std::to_string(kProtocolVersion)),
              std::string::npos)
        << result.failure_message;
    // It is not retried: the same worker would answer the same.
    EXPECT_TRUE(client.gave_up());
}

TEST(RemoteWorker, AMissingRemoteProgramIsAClearMessage) {
    WorkerOptions options;
    options.remote = command_target("/nonexistent/kplay-worker --stdio");
    WorkerClient client(options);
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_EQ(result.failure, WorkerFailure::start_failed);
    EXPECT_NE(result.failure_message.find("kplay-worker is not installed"), std::string::npos) << result.failure_message;
    EXPECT_NE(result.failure_message.find("Try it in a terminal: /nonexistent/kplay-worker --stdio"), std::string::npos)
        << result.failure_message;
}

TEST(RemoteWorker, SomethingElseOnTheStreamIsNotTakenForTheProtocol) {
    WorkerOptions options;
    options.remote = command_target("echo 'Welcome to the GPU box!'; cat");
    WorkerClient client(options);
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_EQ(result.failure, WorkerFailure::protocol);
    EXPECT_NE(result.failure_message.find("is not kplay-worker's protocol"), std::string::npos) << result.failure_message;
}

TEST(RemoteWorker, ADelayedLinkShowsInTheRoundTrip) {
    WorkerCopy worker;
    WorkerOptions options;
    options.remote = command_target(quoted(KPLAY_TEST_DELAY_PROXY) + " --delay-ms 10 -- " + quoted(worker.path) + " --stdio");
    WorkerClient client(options);
    // The first request travels while the connection is made (it overlaps the hello); time the next ones.
    expect_good_run(client);
    for (int i = 0; i < 3; ++i) {
        const WorkerResult result = client.wait(client.submit_run(seed_run()));
        ASSERT_TRUE(result.ok()) << result.failure_message;
        ASSERT_EQ(result.run.stage, Stage::done) << result.run.error;
        // 10 ms each way: the answer's time less the host's is at least the 20 ms round trip.
        EXPECT_GE(result.link_ms, 20) << "run " << i;
        EXPECT_LT(result.link_ms, result.elapsed_ms);
    }
}

TEST(RemoteWorkerSsh, RunsOverSshAndAKilledConnectionLeavesNothingOnTheHost) {
    KPLAY_NEED_SSH(setup);
    WorkerCopy worker;
    WorkerOptions options = ssh_options(setup, worker.path);
    options.run_timeout_s = 60;
    WorkerClient client(options);
    expect_good_run(client);
    EXPECT_TRUE(client.remote_status().connected);
    EXPECT_EQ(client.remote_status().label, "kplay-test");
    const uint64_t id = start_spinning(client);
    ASSERT_NE(id, 0u);
    kill(client.worker_pid(), SIGKILL);  // the ssh client, as a dropped link would end it
    const WorkerResult result = client.wait(id);
    EXPECT_EQ(result.failure, WorkerFailure::disconnected);
    EXPECT_NE(result.failure_message.find("connection to kplay-test was lost"), std::string::npos) << result.failure_message;
    EXPECT_TRUE(eventually([&] { return test::worker_processes(worker.path).empty(); }, 10)) << "left on the host: " << test::worker_processes(worker.path).size();
    expect_good_run(client);
}

TEST(RemoteWorkerSsh, AnUnknownHostKeyAndAMissingWorkerAreClearMessages) {
    KPLAY_NEED_SSH(setup);
    WorkerCopy worker;
    {
        WorkerClient client(ssh_options(setup, worker.path, "-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes -o ControlPath=none"));
        const WorkerResult result = client.wait(client.submit_ping());
        EXPECT_EQ(result.failure, WorkerFailure::start_failed);
        EXPECT_NE(result.failure_message.find("host key"), std::string::npos) << result.failure_message;
        EXPECT_NE(result.failure_message.find("Try it in a terminal: ssh"), std::string::npos) << result.failure_message;
    }
    {
        WorkerClient client(ssh_options(setup, "/nonexistent/kplay-worker"));
        const WorkerResult result = client.wait(client.submit_ping());
        EXPECT_EQ(result.failure, WorkerFailure::start_failed);
        EXPECT_NE(result.failure_message.find("kplay-worker is not installed on kplay-test"), std::string::npos) << result.failure_message;
        EXPECT_NE(result.failure_message.find("kplay-cli remote-install kplay-test"), std::string::npos) << result.failure_message;
    }
}

TEST(RemoteWorkerSsh, AHundredRunsDoNotGrowTheRemoteProcesses) {
    KPLAY_NEED_SSH(setup);
    WorkerCopy worker;
    WorkerClient client(ssh_options(setup, worker.path));
    auto stats = [&] {
        const WorkerResult result = client.wait(client.submit_stats());
        EXPECT_TRUE(result.ok()) << result.failure_message;
        return result.stats;
    };
    for (int i = 0; i < 10; ++i) expect_good_run(client);  // caches and the arena warmed up
    const WorkerStats before = stats();
    for (int i = 0; i < 100; ++i) {
        RunRequest request = seed_run();
        request.inputs.seed = 1 + i % 5;
        const WorkerResult result = client.wait(client.submit_run(request));
        ASSERT_TRUE(result.ok() && result.run.check.passed) << i << ": " << result.failure_message << result.run.error;
    }
    const WorkerStats after = stats();
    std::printf("over 100 runs: worker RSS %.1f -> %.1f MiB, supervisor RSS %.1f -> %.1f MiB\n", before.rss_bytes / 1048576.0,
                after.rss_bytes / 1048576.0, before.supervisor_rss_bytes / 1048576.0, after.supervisor_rss_bytes / 1048576.0);
    ASSERT_GT(before.supervisor_rss_bytes, 0);
    EXPECT_LT(after.rss_bytes - before.rss_bytes, 16 << 20) << before.rss_bytes << " -> " << after.rss_bytes;
    EXPECT_LT(after.supervisor_rss_bytes - before.supervisor_rss_bytes, 8 << 20)
        << before.supervisor_rss_bytes << " -> " << after.supervisor_rss_bytes;
    EXPECT_EQ(client.remote_status().connections, 1);
}

// The window's controller with a host that is out of reach at first: the banner says so (not "runs on
// the emulated device"), and once the host answers, the next run asks for its devices again.
TEST(RemoteSession, AnUnreachableHostIsSaidSoAndItsDevicesAreAskedForAgain) {
    WorkerCopy worker;
    // The first two connections (the device query, then the run) are refused; the host answers from then on.
    const std::string count = quoted(worker.dir.path() / "connections");
    WorkerOptions options;
    options.remote = command_target("n=$(cat " + count + " 2>/dev/null || echo 0); echo $((n + 1)) > " + count + "; if [ $n -ge 2 ]; then exec " +
                                    quoted(worker.path) + " --stdio; fi; echo 'ssh: connect to host gpu-box port 22: Connection refused' >&2; exit 255");
    KernelSession session(options);
    session.open(test::kernels_dir() / "grayscale/01_seed_1d.cu");
    ASSERT_TRUE(eventually([&] {
        session.update();
        return session.results_received() >= 1 && !session.busy();
    }, 30));
    EXPECT_NE(session.device_banner().find("Cannot reach the worker on"), std::string::npos) << session.device_banner();
    ASSERT_TRUE(session.last());
    EXPECT_NE(session.last()->error.find("Connection refused"), std::string::npos) << session.last()->error;

    session.recompile();
    ASSERT_TRUE(eventually([&] {
        session.update();
        return session.results_received() >= 2 && !session.busy();
    }, 60));
    EXPECT_TRUE(session.devices_known());
    EXPECT_EQ(session.device_banner().find("Cannot reach"), std::string::npos) << session.device_banner();
    ASSERT_TRUE(session.last());
    EXPECT_EQ(session.last()->stage, Stage::done) << session.last()->error;
    EXPECT_TRUE(session.client().remote_status().connected);
}
