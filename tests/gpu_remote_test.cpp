// On a GPU, through the remote path (a `kplay-worker --stdio` supervisor reached by --remote-command,
// as ssh would reach it): the grayscale and matmul ladders are correct, and each step's kernel time
// matches a local worker's; the table of both and of the link is printed.
#include <gtest/gtest.h>

#include <cstdio>

#include "client/worker_client.hpp"
#include "client/remote_target.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

RunRequest ladder_run(const std::filesystem::path& file, const std::string& size, const std::string& image = "") {
    RunRequest request;
    request.kernel_path = file;
    request.inputs.size = size;
    request.inputs.image_path = image;
    request.warmup = 3;
    request.repeat = 20;
    request.measure_ceiling = false;
    request.keep_outputs = true;
    return request;
}

}  // namespace

TEST(GpuRemote, TheGrayscaleAndMatmulLaddersAreCorrectOverTheLink) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    WorkerOptions local;
    local.worker_path = test::worker_path();
    WorkerOptions remote;
    remote.remote = command_target("'" + test::worker_path().string() + "' --stdio");
    WorkerClient here(local), there(remote);
    std::printf("\n| kernel | size | local median ms | remote median ms | remote check | link ms | answer ms |\n|---|---|---|---|---|---|---|\n");
    const std::string photo = (test::images_dir() / "grace_hopper.jpg").string();
    std::vector<std::pair<std::filesystem::path, RunRequest>> runs;
    for (const auto& file : test::kernel_files("grayscale")) {
        runs.emplace_back(file, ladder_run(file, "1001x999"));
        runs.emplace_back(file, ladder_run(file, "", photo));
    }
    for (const auto& file : test::kernel_files("matmul")) runs.emplace_back(file, ladder_run(file, test::irregular_matmul_size(file)));
    for (const auto& [file, request] : runs) {
        SCOPED_TRACE(file.string() + " " + request.inputs.size);
        const WorkerResult a = here.wait(here.submit_run(request));
        const WorkerResult b = there.wait(there.submit_run(request));
        ASSERT_TRUE(b.ok()) << b.failure_message;
        ASSERT_TRUE(b.run.ok()) << b.run.error;
        EXPECT_TRUE(b.run.check.passed) << b.run.check.summary;
        EXPECT_FALSE(b.run.emulated);
        EXPECT_EQ(b.run.file, file.string());
        // The same output, pixel for pixel, as the local worker's.
        EXPECT_EQ(a.run.view.output, b.run.view.output);
        std::printf("| %s | %s | %.4f | %.4f | %s | %.1f | %.1f |\n", file.filename().c_str(),
                    request.inputs.size.empty() ? "grace_hopper.jpg" : request.inputs.size.c_str(), a.run.kernel_ms.median, b.run.kernel_ms.median,
                    b.run.check.passed ? "PASS" : "FAIL", b.link_ms, b.elapsed_ms);
    }
    EXPECT_EQ(there.remote_status().connections, 1);
    std::fflush(stdout);
}
