// On a GPU with compute-sanitizer: racecheck on the race lessons (kernels_src/races/). The racy kernels
// may pass on the GPU; racecheck names their lines all the same. racecheck sees shared memory only, so
// the histogram's global-memory race and the fixed kernels show no race.
#include <gtest/gtest.h>

#include <cstdio>

#include "client/worker_client.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/fault_finder.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

struct RaceCase {
    std::string file, size;
    bool race;          // racecheck should report one
    int line_low, line_high;  // the line it names lies in [low, high]
    int other_low, other_high;
};

// Skips without a GPU or compute-sanitizer; else the run and racecheck's answer.
std::pair<RunReport, FaultLocation> race_checked(const RaceCase& c) {
    RunRequest request;
    request.kernel_path = test::kernels_dir() / c.file;
    request.inputs.size = c.size;
    request.check_test_sizes = false;
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.run_timeout_s = 20;
    WorkerClient client(options);
    const RunReport ran = client.wait(client.submit_run(request)).run;
    return {ran, can_run_sanitizer(ran, SanitizerTool::racecheck) ? find_fault_with_sanitizer(test::cli_path(), request, ran, 600, SanitizerTool::racecheck)
                                                                   : FaultLocation{}};
}

}  // namespace

TEST(GpuSanitizerTools, RacecheckNamesTheLinesOfEachRaceLesson) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const ToolLookup tool = find_cuda_tool(CudaTool::compute_sanitizer); !tool.found()) GTEST_SKIP() << tool.missing;
    const std::vector<RaceCase> cases = {
        // partial[t] += partial[t + s] (line 30), or its last write against thread 0's read for the atomic (33)
        {"races/01_reduction_missing_barrier.cu", "65536", true, 30, 33, 30, 33},
        // the six unsynced steps (33-38), or the last against thread 0's read for the atomic (40)
        {"races/02_warp_reduce_without_syncwarp.cu", "65536", true, 33, 40, 33, 40},
        {"races/03_scan_missing_barrier.cu", "4096", true, 31, 33, 31, 33},        // the read of xy[t - stride], the add into xy[t]
        {"races/04_histogram_without_atomics.cu", "64x48", false, 0, 0, 0, 0},      // global memory: not racecheck's
        {"races/05_warp_reduce_with_syncwarp.cu", "65536", false, 0, 0, 0, 0},
        {"reduction/02_shared_tree_interleaved.cu", "65536", false, 0, 0, 0, 0},
    };
    std::printf("\n| kernel | run | racecheck | line | other line | s |\n|---|---|---|---|---|---|\n");
    for (const RaceCase& c : cases) {
        SCOPED_TRACE(c.file);
        const auto [ran, found] = race_checked(c);
        ASSERT_TRUE(can_run_sanitizer(ran, SanitizerTool::racecheck)) << "the kernel did not launch: " << ran.error;
        EXPECT_EQ(found.tool, SanitizerTool::racecheck);
        std::printf("| %s | %s | %s | %d | %d | %.1f |\n", c.file.c_str(), ran.ok() && ran.check.passed ? "PASS" : "FAIL",
                    found.found ? found.message.c_str() : found.problem.c_str(), found.line, found.other_line, found.seconds);
        if (!c.race) {
            EXPECT_FALSE(found.found) << found.message;
            EXPECT_EQ(found.problem, "racecheck found no shared-memory race in the same run (RACECHECK SUMMARY: 0 hazards).");
            continue;
        }
        ASSERT_TRUE(found.found) << found.problem;
        EXPECT_GE(found.line, c.line_low) << found.message;
        EXPECT_LE(found.line, c.line_high) << found.message;
        EXPECT_GE(found.other_line, c.other_low) << found.message;
        EXPECT_LE(found.other_line, c.other_high) << found.message;
        ASSERT_TRUE(found.race.has_value()) << "a hazard record, not only an analysis";
        EXPECT_EQ(found.race->space, "shared");
        EXPECT_GT(found.findings, 0);
    }
}

TEST(GpuSanitizerTools, TheCliShowsARaceInARunThatMayPass) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const ToolLookup tool = find_cuda_tool(CudaTool::compute_sanitizer); !tool.found()) GTEST_SKIP() << tool.missing;
    const auto cache = std::filesystem::temp_directory_path() / "kplay-gpu-racecheck-cli";
    test::CliPlace place;
    place.gpu = true;
    const test::CliRun run = test::run_cli("run " + (test::kernels_dir() / "races/03_scan_missing_barrier.cu").string() +
                                               " --size 4096 --no-test-sizes --find-fault=racecheck --json",
                                           cache, place);
    ASSERT_NE(run.output.find('{'), std::string::npos) << run.output;
    const nlohmann::json out = nlohmann::json::parse(run.output.substr(run.output.find('{')));
    ASSERT_EQ(out.at("fault_locations").size(), 1u) << run.output;
    const nlohmann::json& location = out.at("fault_locations").at(0);
    EXPECT_EQ(location.at("tool"), "racecheck");
    EXPECT_TRUE(location.at("found").get<bool>()) << location.dump(2);
    EXPECT_TRUE(location.contains("race")) << location.dump(2);
    EXPECT_EQ(location.at("race").at("space"), "shared");
}
