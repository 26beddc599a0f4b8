// On a GPU: the whole fault corpus through one worker client. Each fault is reported as its header
// says, and right after it a good kernel runs and is correct; the recovery time is printed as a table.
// Then 200 compile+run cycles must not grow the worker's memory or the device's.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "test_support.hpp"
#include "error_code_names.hpp"
#include "client/worker_client.hpp"
#include "client/remote_target.hpp"

using namespace kplay;

namespace {

RunRequest small_run(const std::filesystem::path& file) {
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = file.string().find("matmul") != std::string::npos || file.filename().string().find("07_") == 0 ||
                                  file.filename().string().find("10_") == 0
                              ? "256"
                              : "640x480";
    request.warmup = 1;
    request.repeat = 3;
    request.measure_ceiling = false;
    return request;
}

// The corpus through one client: a local worker, or a remote one (the host's supervisor survives each
// fault, so the connection does too).
void run_fault_corpus(const WorkerOptions& options) {
    WorkerClient client(options);
    const auto good = test::kernels_dir() / "grayscale/01_seed_1d.cu";
    ASSERT_TRUE(client.wait(client.submit_run(small_run(good))).run.passed());  // warm: context and cache

    std::printf("\n| fault | stage | code | message shown | recovery ms | next run correct |\n|---|---|---|---|---|---|\n");
    for (const auto& file : test::kernel_files("faults")) {
        SCOPED_TRACE(file.string());
        const test::FaultExpectation expected = test::read_fault_expectation(file);
        const WorkerResult fault = client.wait(client.submit_run(small_run(file)));
        const auto reported = std::chrono::steady_clock::now();
        const RunReport& report = fault.run;
        EXPECT_EQ(stage_name(report.stage), expected.stage) << report.error;
        if (!expected.code.empty()) {
            EXPECT_EQ(report.error_code, expected.code) << report.error;
        }
        if (!expected.text.empty()) {
            const std::string all = report.error + " " + report.compile.log;
            EXPECT_NE(all.find(expected.text), std::string::npos) << all;
        }
        EXPECT_FALSE(report.passed());
        if (report.fault.sticky) {
            EXPECT_NE(report.error.find("replaced"), std::string::npos) << report.error;
        }

        const WorkerResult next = client.wait(client.submit_run(small_run(good)));
        const double recovery_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - reported).count();
        EXPECT_TRUE(next.run.passed()) << next.run.error << " " << next.failure_message;
        std::string message = report.error.substr(0, report.error.find('\n'));
        if (message.size() > 110) message = message.substr(0, 107) + "...";
        std::printf("| %s | %s | %s | %s | %.0f | %s |\n", file.filename().c_str(), stage_name(report.stage),
                    report.error_code == ErrorCode::none ? "-" : error_code_name(report.error_code).c_str(), message.c_str(), recovery_ms,
                    next.run.passed() ? "yes" : "NO");
        if (report.fault.sticky) {
            EXPECT_LT(recovery_ms, 2000) << "goal: recovery within 2 s";
        }
    }
    if (client.remote()) {
        std::printf("one connection throughout: %d made\n", client.remote_status().connections);
        EXPECT_EQ(client.remote_status().connections, 1);
    }
    std::fflush(stdout);
}

}  // namespace

TEST(GpuFaultCorpus, EveryFaultIsSurvivedAndTheNextRunIsCorrect) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.run_timeout_s = 5;
    run_fault_corpus(options);
}

TEST(GpuFaultCorpus, EveryFaultIsSurvivedOverARemoteLink) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    WorkerOptions options;
    options.remote = command_target("'" + test::worker_path().string() + "' --stdio");
    options.run_timeout_s = 5;
    run_fault_corpus(options);
}

TEST(GpuFaultCorpus, TwoHundredCompileRunCyclesDoNotLeak) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    WorkerOptions options;
    options.worker_path = test::worker_path();
    WorkerClient client(options);
    const auto file = test::kernels_dir() / "grayscale/01_seed_1d.cu";
    const std::string source = test::read_file(file);
    const std::string run = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" + std::to_string(::getpid());
    WorkerStats after_warmup;
    for (int cycle = 0; cycle < 200; ++cycle) {
        RunRequest request = small_run(file);
        // A source no earlier run compiled (this test's earlier runs share the compile cache): a real recompile.
        request.source = source + "\n// edit " + std::to_string(cycle) + " of run " + run + "\n";
        const WorkerResult result = client.wait(client.submit_run(request));
        ASSERT_TRUE(result.run.passed()) << result.run.error;
        ASSERT_FALSE(result.run.compile.cache_hit);
        if (cycle == 19) after_warmup = client.wait(client.submit_stats()).stats;
    }
    const WorkerStats end = client.wait(client.submit_stats()).stats;
    std::printf("worker RSS %.1f MiB -> %.1f MiB; device memory in use %.1f MiB -> %.1f MiB (cycles 20 -> 200)\n",
                after_warmup.rss_bytes / 1048576.0, end.rss_bytes / 1048576.0, after_warmup.device_used_bytes / 1048576.0,
                end.device_used_bytes / 1048576.0);
    EXPECT_EQ(client.restarts(), 0);
    EXPECT_LT(end.rss_bytes - after_warmup.rss_bytes, 32ll << 20);  // 180 cached entries are a few MiB
    EXPECT_LE(end.device_used_bytes - after_warmup.device_used_bytes, 4ll << 20);
}
