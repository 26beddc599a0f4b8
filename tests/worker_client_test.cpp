// The supervised client against misbehaving fake workers and the real worker (no GPU needed): every
// failure ends in a clean message, and the next request works.
#include <gtest/gtest.h>
#include <poll.h>

#include <chrono>
#include <cstdlib>

#include "test_support.hpp"
#include "client/worker_client.hpp"

using namespace kplay;

namespace {

WorkerOptions fake(const std::string& mode, const test::TempDir& dir, bool always = false) {
    WorkerOptions options;
    options.worker_path = KPLAY_TEST_FAKE_WORKER;
    options.worker_args = {"--mode", mode, "--marker", (dir.path() / "marker").string()};
    if (always) options.worker_args.push_back("--always");
    options.compile_timeout_s = 2;
    return options;
}

void expect_recovers(WorkerClient& client) {
    const WorkerResult next = client.wait(client.submit_ping());
    EXPECT_TRUE(next.ok()) << next.failure_message;
}

}  // namespace

TEST(WorkerClient, AnswersPings) {
    test::TempDir dir;
    WorkerClient client(fake("none", dir));
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_TRUE(result.ok()) << result.failure_message;
    EXPECT_GT(result.worker_pid, 0);
    EXPECT_EQ(client.restarts(), 0);
}

// The window submits, then sleeps in poll(2) on the worker's socket until an answer arrives: a request
// left queued until the next poll() would never be answered (F5's run once waited for the next key).
TEST(WorkerClient, ARequestGoesToTheWorkerWhenSubmittedNotAtTheNextPoll) {
    test::TempDir dir;
    WorkerClient client(fake("none", dir));
    const uint64_t id = client.submit_ping();
    ASSERT_GE(client.wait_fd(), 0) << "the worker is started by the submit";
    pollfd socket{client.wait_fd(), POLLIN, 0};
    ASSERT_EQ(::poll(&socket, 1, 10000), 1) << "the answer arrives without a poll() to send the request";
    const WorkerResult result = client.wait(id);
    EXPECT_TRUE(result.ok()) << result.failure_message;
    // The same with a worker already running and idle.
    const uint64_t second = client.submit_ping();
    socket = {client.wait_fd(), POLLIN, 0};
    ASSERT_EQ(::poll(&socket, 1, 10000), 1);
    EXPECT_TRUE(client.wait(second).ok());
}

TEST(WorkerClient, CrashIsReportedWithTheSignalAndTheWorkerRestarts) {
    test::TempDir dir;
    WorkerClient client(fake("crash", dir));
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_EQ(result.failure, WorkerFailure::crashed);
    EXPECT_NE(result.failure_message.find("SEGV"), std::string::npos) << result.failure_message;
    expect_recovers(client);
    EXPECT_EQ(client.restarts(), 1);
}

TEST(WorkerClient, ExitAtStartIsReported) {
    test::TempDir dir;
    WorkerClient client(fake("exit-at-start", dir));
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_EQ(result.failure, WorkerFailure::crashed);
    EXPECT_NE(result.failure_message.find("exited with status 1"), std::string::npos) << result.failure_message;
    expect_recovers(client);
}

TEST(WorkerClient, GarbageAndBrokenFramesAreProtocolErrors) {
    for (const std::string mode : {"garbage", "oversized", "bad-json"}) {
        test::TempDir dir;
        WorkerClient client(fake(mode, dir));
        const WorkerResult result = client.wait(client.submit_ping());
        EXPECT_EQ(result.failure, WorkerFailure::protocol) << mode << ": " << result.failure_message;
        EXPECT_NE(result.failure_message.find("broken answer"), std::string::npos) << result.failure_message;
        expect_recovers(client);
    }
}

TEST(WorkerClient, AResultOfTheWrongShapeFailsThatRequestCleanly) {
    test::TempDir dir;
    WorkerClient client(fake("wrong-shape", dir));
    RunRequest request;
    request.kernel_path = "k.cu";
    const WorkerResult result = client.wait(client.submit_run(request));
    EXPECT_EQ(result.failure, WorkerFailure::protocol) << result.failure_message;
    EXPECT_EQ(result.run.stage, Stage::worker);
    EXPECT_EQ(result.run.file, "k.cu");
    expect_recovers(client);
}

TEST(WorkerClient, ClosingMidFrameIsACrashNotAHang) {
    test::TempDir dir;
    WorkerClient client(fake("close-mid-frame", dir));
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_EQ(result.failure, WorkerFailure::crashed) << result.failure_message;
    expect_recovers(client);
}

TEST(WorkerClient, HangIsStoppedByTheWatchdog) {
    test::TempDir dir;
    WorkerOptions options = fake("hang", dir);
    options.run_timeout_s = 0.5;
    WorkerClient client(options);
    RunRequest request;
    request.kernel_path = "spin.cu";
    const auto start = std::chrono::steady_clock::now();
    const WorkerResult result = client.wait(client.submit_run(request));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(result.failure, WorkerFailure::timeout);
    EXPECT_EQ(result.run.error, "Kernel did not finish within 0.5 s and was stopped — an endless loop?");
    EXPECT_EQ(result.run.stage, Stage::worker);
    EXPECT_LT(seconds, 3.0);
    expect_recovers(client);
}

TEST(WorkerClient, ACpuPhaseIsTimedByItsOwnLimitNotTheKernels) {
    test::TempDir dir;
    WorkerOptions options = fake("slow-cpu", dir);
    options.run_timeout_s = 0.3;  // the fake worker's CPU phase takes 1 s: longer than a kernel may run
    WorkerClient client(options);
    RunRequest request;
    request.kernel_path = "slow_reference.cu";
    const WorkerResult result = client.wait(client.submit_run(request));
    EXPECT_TRUE(result.ok()) << result.failure_message;
    EXPECT_EQ(result.run.stage, Stage::done);
    EXPECT_GE(result.elapsed_ms, 900);
}

TEST(WorkerClient, CrashLoopGivesUpInsteadOfSpinning) {
    test::TempDir dir;
    WorkerClient client(fake("crash", dir, true));
    for (int i = 0; i < 3; ++i) EXPECT_EQ(client.wait(client.submit_ping()).failure, WorkerFailure::crashed);
    EXPECT_TRUE(client.gave_up());
    const WorkerResult refused = client.wait(client.submit_ping());
    EXPECT_EQ(refused.failure, WorkerFailure::gave_up);
    EXPECT_NE(refused.failure_message.find("failed 3 times"), std::string::npos) << refused.failure_message;
    EXPECT_EQ(client.restarts(), 2);  // three starts in all, no more
    client.reset_crash_loop();
    EXPECT_EQ(client.wait(client.submit_ping()).failure, WorkerFailure::crashed);  // it tries again when asked
}

TEST(WorkerClient, MissingWorkerBinaryIsAClearMessage) {
    WorkerOptions options;
    options.worker_path = "/no/such/kplay-worker";
    WorkerClient client(options);
    const WorkerResult result = client.wait(client.submit_ping());
    EXPECT_FALSE(result.ok());
    EXPECT_FALSE(result.failure_message.empty());
}

TEST(WorkerClient, PollNeverBlocks) {
    test::TempDir dir;
    WorkerOptions options = fake("hang", dir);
    options.run_timeout_s = 1;
    WorkerClient client(options);
    client.submit_run(RunRequest{});
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 100; ++i) EXPECT_FALSE(client.poll().has_value());
    const double elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(elapsed_ms, 200);  // generous: 100 polls of a hung worker must not wait on it
}

TEST(RealWorker, CompilesAndReportsNoDriverWithoutAGpu) {
    setenv("KPLAY_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);  // inherited by the worker
    WorkerOptions options;
    options.worker_path = test::worker_path();
    WorkerClient client(options);
    CompileFileRequest compile;
    compile.path = test::kernels_dir() / "matmul/03_tiled_static_smem.cu";
    compile.arch = "compute_90";
    const WorkerResult compiled = client.wait(client.submit_compile(compile));
    ASSERT_TRUE(compiled.ok()) << compiled.failure_message;
    EXPECT_TRUE(compiled.compile.compile.ok);
    EXPECT_EQ(compiled.compile.spec->kernel, "matmul_tiled_k<16>");

    const WorkerResult devices = client.wait(client.submit_devices());
    ASSERT_TRUE(devices.ok());
    EXPECT_NE(devices.devices.problem().find("No CUDA driver"), std::string::npos);

    RunRequest run;
    run.kernel_path = test::kernels_dir() / "grayscale/01_seed_1d.cu";
    run.emulate_without_gpu = false;
    const WorkerResult ran = client.wait(client.submit_run(run));
    ASSERT_TRUE(ran.ok());
    EXPECT_EQ(ran.run.stage, Stage::device);
    EXPECT_TRUE(ran.run.compile.ok);

    // By default a run without a GPU goes to the emulated device, through the same worker.
    run.emulate_without_gpu = true;
    const WorkerResult emulated = client.wait(client.submit_run(run));
    ASSERT_TRUE(emulated.ok());
    EXPECT_EQ(emulated.run.stage, Stage::done) << emulated.run.error;
    EXPECT_TRUE(emulated.run.emulated);
    EXPECT_TRUE(emulated.run.check.passed);
    unsetenv("KPLAY_CUDA_DRIVER");
}

// A run asked for a view at most 32 pixels a side gets it downsampled, and the "view" request with its
// key brings the full resolution: the same arrays a run without the limit sends. A side run (no
// outputs kept) leaves it; the next shown run replaces it, and the old key then gets a message.
TEST(RealWorker, ADownsampledViewsFullResolutionComesOnRequest) {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    WorkerClient client(options);
    RunRequest run = test::quick_seed_run();
    run.keep_outputs = true;
    const WorkerResult whole = client.wait(client.submit_run(run));
    ASSERT_TRUE(whole.ok()) << whole.failure_message;
    ASSERT_EQ(whole.run.stage, Stage::done) << whole.run.error;
    EXPECT_EQ(whole.run.view.step, 1);
    EXPECT_TRUE(whole.run.view.full_view_key.empty());

    run.view_side = 32;
    RunRequest side = run;  // a library ceiling or a fault's re-run: no outputs kept
    side.keep_outputs = false;
    side.view_side = 0;
    const WorkerResult shown = client.wait(client.submit_run(run));
    ASSERT_TRUE(shown.ok()) << shown.failure_message;
    const OutputView& view = shown.run.view;
    EXPECT_EQ(view.step, 3);  // 96 / 32
    EXPECT_EQ(view.width, 32);
    EXPECT_EQ(view.height, 22);
    EXPECT_EQ(view.cols, 96);
    EXPECT_EQ(view.rows, 64);
    ASSERT_FALSE(view.full_view_key.empty());
    ASSERT_TRUE(client.wait(client.submit_run(side)).ok());  // a side run leaves the kept output
    const WorkerResult full = client.wait(client.submit_view(view.full_view_key, false));
    ASSERT_TRUE(full.ok()) << full.failure_message;
    EXPECT_EQ(full.kind, MessageKind::view);
    EXPECT_TRUE(full.run.error.empty()) << full.run.error;
    EXPECT_EQ(full.run.view.step, 1);
    EXPECT_EQ(full.run.view.width, 96);
    EXPECT_EQ(full.run.view.height, 64);
    EXPECT_EQ(full.run.view.output, whole.run.view.output);
    EXPECT_EQ(full.run.view.map, whole.run.view.map);

    // A run asked for while a view is on its way is answered after it (the window's F5 during a hover).
    const WorkerResult again = client.wait(client.submit_run(run));
    ASSERT_TRUE(again.ok()) << again.failure_message;
    const uint64_t view_id = client.submit_view(again.run.view.full_view_key, false);
    const uint64_t run_id = client.submit_run(run);
    const WorkerResult after = client.wait(run_id);
    ASSERT_TRUE(after.ok()) << after.failure_message;
    EXPECT_EQ(after.run.stage, Stage::done) << after.run.error;
    EXPECT_TRUE(client.wait(view_id).ok());

    ASSERT_TRUE(client.wait(client.submit_run(run)).ok());  // a newer shown run replaces it
    const WorkerResult gone = client.wait(client.submit_view(view.full_view_key, false));
    ASSERT_TRUE(gone.ok()) << gone.failure_message;
    EXPECT_TRUE(gone.run.view.empty());
    EXPECT_NE(gone.run.error.find("no longer keeps this output"), std::string::npos) << gone.run.error;
}

// A run overtaken by a newer one (the window's next save) ends after its checked result instead of
// running its further sizes first: the newer run's picture does not wait behind them.
TEST(RealWorker, AnOvertakenRunIsCutShortAfterItsCheckedResult) {
    WorkerOptions options;
    options.worker_path = test::worker_path();
    WorkerClient client(options);
    test::expect_a_run_cut_short(client);
}

// An inspect compile comes back with its CUBIN (a shared-memory blob, not JSON), the PTX it was built
// from and ptxas's resource report, for an sm_ arch even when `compute_` was asked and without a GPU.
TEST(RealWorker, AnInspectCompileBringsTheCubinItsPtxAndThePtxasReport) {
    setenv("KPLAY_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    WorkerOptions options;
    options.worker_path = test::worker_path();
    WorkerClient client(options);
    CompileFileRequest compile;
    compile.path = test::kernels_dir() / "matmul/03_tiled_static_smem.cu";
    compile.arch = "compute_90";
    compile.inspect = true;
    const WorkerResult compiled = client.wait(client.submit_compile(compile));
    unsetenv("KPLAY_CUDA_DRIVER");
    ASSERT_TRUE(compiled.ok()) << compiled.failure_message;
    const CompileResult& result = compiled.compile.compile;
    ASSERT_TRUE(result.ok) << result.failure;
    EXPECT_EQ(result.arch, "sm_90");
    EXPECT_TRUE(result.is_cubin);
    ASSERT_GT(result.binary.size(), 4u);
    EXPECT_EQ(result.binary.substr(0, 4), "\x7f" "ELF");  // a CUBIN is an ELF file
    EXPECT_NE(result.ptx.find(".entry _Z14matmul_tiled_kILi16EEvPfS0_S0_iii"), std::string::npos);
    EXPECT_NE(result.ptx.find(".loc"), std::string::npos);  // -lineinfo
    EXPECT_NE(result.log.find("Used 32 registers"), std::string::npos) << result.log;
    EXPECT_EQ(result.count(Severity::warning), 0) << "ptxas's report is no diagnostic";
}

// The options' extra environment replaces an inherited variable of the same name (getenv reads the
// first entry: appended after the inherited one, an extra XDG_CACHE_HOME went unseen by the worker).
TEST(WorkerClient, TheExtraEnvironmentOverridesTheInheritedOne) {
    test::TempDir dir;
    const auto seen = dir.path() / "seen";
    const auto script = dir.write("worker.sh", "#!/bin/sh\nprintf '%s' \"$KPLAY_TEST_PROBE\" > '" + seen.string() + "'\nexit 1\n");
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    setenv("KPLAY_TEST_PROBE", "inherited", 1);
    WorkerOptions options;
    options.worker_path = script;
    options.extra_environment = {"KPLAY_TEST_PROBE=extra"};
    {
        WorkerClient client(options);
        client.wait(client.submit_ping());  // the "worker" exits at once: only what it saw matters
    }
    unsetenv("KPLAY_TEST_PROBE");
    EXPECT_EQ(test::read_file(seen), "extra");
}
