// On a GPU: the compile server outlives a faulting launch. A CUB BlockScan kernel is run, edited and run
// again (the second compile uses NVRTC's precompiled header); then a kernel writes out of bounds (a
// sticky fault: the worker is replaced), and the next edit of the scan kernel still finds the PCH, in
// the same server, and is correct. Prints each compile's wall time and NVRTC's.
#include <gtest/gtest.h>

#include <cstdio>

#include "client/worker_client.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

RunRequest scan_run(const std::string& edit) {
    RunRequest request;
    request.kernel_path = test::data_dir() / "cub" / "block_scan_sums.cu";
    request.source = test::read_file(request.kernel_path) + "\n// " + edit + "\n";  // a new text: a compile
    request.warmup = 1;
    request.repeat = 3;
    request.measure_ceiling = false;
    return request;
}

}  // namespace

TEST(GpuCompileServer, APchOutlivesAFaultingLaunch) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    test::TempDir dir;
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.extra_environment = {"XDG_RUNTIME_DIR=" + dir.path().string(), "XDG_CACHE_HOME=" + (dir.path() / "cache").string()};
    WorkerClient client(options);
    const auto report = [](const char* what, const WorkerResult& result) {
        const CompileResult& compile = result.run.compile;
        std::printf("compile server: %s: %.0f ms nvrtc, pch %s, worker %d\n", what, compile.compile_ms,
                    compile.pch == PchUse::used ? "used" : compile.pch == PchUse::created ? "created" : "none", result.worker_pid);
    };
    const WorkerResult first = client.wait(client.submit_run(scan_run("first")));
    ASSERT_TRUE(first.run.passed()) << first.run.error << first.failure_message;
    report("first", first);
    const WorkerResult edited = client.wait(client.submit_run(scan_run("edit 1")));
    ASSERT_TRUE(edited.run.passed()) << edited.run.error;
    report("edit 1", edited);
    EXPECT_EQ(edited.run.compile.pch, PchUse::used);

    RunRequest fault;
    fault.kernel_path = test::kernels_dir() / "faults" / "01_out_of_bounds_write.cu";
    fault.inputs.size = "640x480";
    const WorkerResult faulted = client.wait(client.submit_run(fault));
    EXPECT_TRUE(faulted.run.fault.sticky) << faulted.run.error;

    const WorkerResult after = client.wait(client.submit_run(scan_run("edit 2")));
    ASSERT_TRUE(after.run.passed()) << after.run.error << after.failure_message;
    report("edit 2, after the fault", after);
    EXPECT_NE(after.worker_pid, edited.worker_pid);
    EXPECT_EQ(after.run.compile.pch, PchUse::used);
    std::fflush(stdout);
}
