// On a GPU with compute-sanitizer: racecheck on the race lessons (kernels_src/races/) and the tests' race
// kernels, beside kplay's verdict on the emulated device (docs/RACES.md). The racy kernels may pass on the
// GPU; racecheck names their lines all the same. racecheck sees shared memory only, so the global-memory
// races (the histogram, the handoff without a fence) and the fixed kernels show no race there.
#include <gtest/gtest.h>

#include <cstdio>

#include "client/worker_client.hpp"
#include "inspect/cuda_tools.hpp"
#include "inspect/fault_finder.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {

enum class Expect { race, none, either };  // either: racecheck may not see this kind (warp-level, atomics)

struct RaceCase {
    std::string file, size;
    Expect racecheck;
    int line_low, line_high;  // the line it names lies in [low, high]
    int other_low, other_high;
    bool emulated_race;  // kplay's verdict on the emulated device
};

// Skips without a GPU or compute-sanitizer; else the run and racecheck's answer. `file` is under
// kernels_src/, or under tests/data/ with a "data/" prefix.
std::filesystem::path path_of(const std::string& file) {
    return file.rfind("data/", 0) == 0 ? test::data_dir() / file.substr(5) : test::kernels_dir() / file;
}

std::pair<RunReport, FaultLocation> race_checked(const RaceCase& c) {
    RunRequest request;
    request.kernel_path = path_of(c.file);
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

// The same kernel on the emulated device, tracked: kplay's own verdict.
RunReport emulated_verdict(const RaceCase& c) {
    RunRequest request;
    request.kernel_path = path_of(c.file);
    request.emulate = true;
    request.check_test_sizes = false;
    request.emulation_timeout_s = 120;
    WorkerOptions options;
    options.worker_path = test::worker_path();
    options.run_timeout_s = 180;
    WorkerClient client(options);
    return client.wait(client.submit_run(request)).run;
}

std::string kplay_words(const RunReport& report) {
    if (report.races.empty()) return report.ok() ? "no race" : "no race; " + report.error.substr(0, 60);
    const Race& race = report.races.front();
    return std::string(race_kind_name(race)) + " race, lines " + std::to_string(std::min(race.first.line, race.second.line)) + "/" +
           std::to_string(std::max(race.first.line, race.second.line)) + (report.ok() ? "" : ", then the fault");
}

// The race lessons, the race-free kernels beside them and the tests' own race kernels, each judged by
// racecheck on the GPU and by kplay on the emulated device: the table docs/RACES.md shows.
const std::vector<RaceCase>& race_cases() {
    static const std::vector<RaceCase> cases = {
        // partial[t] += partial[t + s] (line 30), or its last write against thread 0's read for the atomic (33)
        {"races/01_reduction_missing_barrier.cu", "65536", Expect::race, 30, 33, 30, 33, true},
        // the six unsynced steps (33-38), or the last against thread 0's read for the atomic (40)
        {"races/02_warp_reduce_without_syncwarp.cu", "65536", Expect::race, 33, 40, 33, 40, true},
        {"races/03_scan_missing_barrier.cu", "4096", Expect::race, 31, 33, 31, 33, true},  // the read of xy[t - stride], the add into xy[t]
        {"races/04_histogram_without_atomics.cu", "64x48", Expect::none, 0, 0, 0, 0, true},  // global memory: not racecheck's
        {"races/05_warp_reduce_with_syncwarp.cu", "65536", Expect::none, 0, 0, 0, 0, false},
        {"races/06_warp_exchange_without_syncwarp.cu", "65536x8", Expect::either, 33, 36, 33, 36, true},
        {"races/07_warp_exchange_with_syncwarp.cu", "65536x8", Expect::none, 0, 0, 0, 0, false},
        {"races/08_counter_reset_against_atomics.cu", "65536", Expect::either, 20, 23, 20, 23, true},
        {"races/09_block_handoff_without_fence.cu", "65536", Expect::none, 0, 0, 0, 0, true},  // global memory: not racecheck's
        {"races/10_block_handoff_with_fence.cu", "65536", Expect::none, 0, 0, 0, 0, false},
        {"races/11_race_then_fault.cu", "65536", Expect::race, 24, 26, 24, 26, true},
        {"reduction/02_shared_tree_interleaved.cu", "65536", Expect::none, 0, 0, 0, 0, false},
        {"data/races/counter_lines.cu", "256", Expect::either, 13, 14, 13, 14, true},  // racecheck saw none on the H100,
        {"data/races/softmax_lines.cu", "8x200", Expect::race, 35, 40, 35, 40, true},
        {"data/races/shared_types.cu", "4096", Expect::none, 0, 0, 0, 0, false},
    };
    return cases;
}

}  // namespace

TEST(GpuSanitizerTools, RacecheckAndKplaySideBySide) {
    if (const std::string why = test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why;
    if (const ToolLookup tool = find_cuda_tool(CudaTool::compute_sanitizer); !tool.found()) GTEST_SKIP() << tool.missing;
    std::printf("\n| kernel | GPU run | racecheck | its lines | kplay (emulated) |\n|---|---|---|---|---|\n");
    for (const RaceCase& c : race_cases()) {
        SCOPED_TRACE(c.file);
        const auto [ran, found] = race_checked(c);
        const RunReport emulated = emulated_verdict(c);
        std::printf("| %s | %s | %s | %d/%d | %s |\n", c.file.c_str(), ran.ok() && ran.check.passed ? "PASS" : ran.ok() ? "FAIL" : "error",
                    found.found ? (found.race ? std::string(name_of(found.race->kind)) + " " + std::string(name_of(found.race->severity)) : std::string("hazard")).c_str() : "no hazard", found.line, found.other_line,
                    kplay_words(emulated).c_str());
        EXPECT_EQ(!emulated.races.empty(), c.emulated_race) << kplay_words(emulated);
        ASSERT_TRUE(can_run_sanitizer(ran, SanitizerTool::racecheck)) << "the kernel did not launch: " << ran.error;
        EXPECT_EQ(found.tool, SanitizerTool::racecheck);
        if (c.racecheck == Expect::none) {
            EXPECT_FALSE(found.found) << found.message;
            EXPECT_EQ(found.problem, "racecheck found no shared-memory race in the same run (RACECHECK SUMMARY: 0 hazards).");
            continue;
        }
        if (c.racecheck == Expect::either && !found.found) continue;
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
