// kplay-cli bench over device groups (--pool, --devices all), end to end: a column per group, each
// against its own ceilings; a member that never comes up, a group the pool lacks, and a group whose only
// worker dies mid-bench are each a clear line while what did run stays. Two groups without a GPU come
// from the fake worker, which answers as a GPU (and runs the emulated device's requests as well).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using Result = kplay::test::CliRun;
namespace fs = std::filesystem;

std::string kernel(const std::string& relative) { return (kplay::test::kernels_dir() / relative).string(); }

// A kplay-worker stand-in for KPLAY_WORKER: the fake worker in its session mode with `arguments`, after
// `before` (shell lines).
fs::path fake_worker_script(const kplay::test::TempDir& dir, const std::string& arguments, const std::string& before = "") {
    const fs::path script = dir.write("worker.sh", "#!/bin/sh\n" + before + "exec '" + std::string(KPLAY_TEST_FAKE_WORKER) +
                                                       "' --session " + arguments + " \"$@\"\n");
    ::chmod(script.c_str(), 0755);
    return script;
}

Result run_cli(const std::string& arguments, const kplay::test::TempDir& dir, const std::string& environment = "") {
    return kplay::test::run_cli(arguments, dir.path() / "cache", {".", environment});
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    for (size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) lines.push_back(text.substr(at, end - at));
    return lines;
}

}  // namespace

// A GPU's worker and --devices all: the GPU's column and the emulated device's, each with its own
// ceilings (cuBLAS rows only where there is a GPU), lined up, and the same as JSON, a group each.
TEST(CliBenchGroups, DevicesAllGivesAColumnPerGroupAgainstItsOwnCeilings) {
    kplay::test::TempDir dir;
    const std::string worker = "KPLAY_WORKER=" + fake_worker_script(dir, "--gpu").string();
    const std::string files = kernel("grayscale/01_seed_1d.cu") + " " + kernel("matmul/01_seed_naive.cu");
    const Result table = run_cli("bench " + files + " --devices all", dir, worker);
    EXPECT_EQ(table.code, 0) << table.output;
    const std::vector<std::string> lines = lines_of(table.output);
    ASSERT_GE(lines.size(), 9u) << table.output;
    EXPECT_EQ(lines[0], "bench on 2 device groups: each column against its own group's ceilings and cuBLAS; times are never compared across columns");
    EXPECT_EQ(lines[1].rfind("[1] Fake GPU sm_90: Fake GPU on local; copy ceiling 2000 GB/s", 0), 0u) << table.output;
    EXPECT_NE(lines[1].find("; cuBLAS fp32 4.00 TFLOP/s"), std::string::npos) << table.output;
    EXPECT_EQ(lines[2].rfind("[2] cpu (emulated): ", 0), 0u) << table.output;
    EXPECT_NE(lines[2].find("emulated: CPU wall time"), std::string::npos) << table.output;
    const size_t header = table.output.find("\nkernel ") + 1;
    const std::vector<std::string> rows = lines_of(table.output.substr(header));
    EXPECT_NE(rows[0].find("| [1] Fake GPU sm_90"), std::string::npos) << table.output;
    EXPECT_NE(rows[0].find("| [2] cpu (emulated)"), std::string::npos) << table.output;
    // Every row's column separators sit where the header's do.
    const size_t first_bar = rows[0].find(" | "), second_bar = rows[0].find(" | ", first_bar + 3);
    for (size_t i = 1; i < 6; ++i) {
        EXPECT_EQ(rows[i].find(" | "), first_bar) << rows[i];
        EXPECT_EQ(rows[i].find(" | ", first_bar + 3), second_bar) << rows[i];
    }
    // cuBLAS on the GPU only; matmul judged against it there (50%), against nothing emulated.
    EXPECT_NE(rows[2].find("cublas-fp32"), std::string::npos) << table.output;
    EXPECT_EQ(rows[2].substr(second_bar), " | -") << table.output;
    const std::string& matmul = rows[5];
    EXPECT_NE(matmul.find("matmul/01_seed_naive.cu @ "), std::string::npos) << table.output;
    EXPECT_NE(matmul.substr(0, second_bar).find("50.0%  PASS"), std::string::npos) << table.output;
    EXPECT_NE(matmul.substr(second_bar).find("GFLOP/s       -  PASS"), std::string::npos) << table.output;
    EXPECT_EQ(table.output.find("faster"), std::string::npos) << "no figure relates two columns";

    const Result json_run = run_cli("bench " + files + " --devices all --json", dir, worker);
    EXPECT_EQ(json_run.code, 0) << json_run.output;
    const nlohmann::json json = nlohmann::json::parse(json_run.output.substr(json_run.output.find('{')));
    ASSERT_EQ(json["groups"].size(), 2u) << json_run.output;
    EXPECT_EQ(json["groups"][0]["name"], "Fake GPU sm_90");
    EXPECT_EQ(json["groups"][0]["arch"], "sm_90");
    EXPECT_FALSE(json["groups"][0]["emulated"].get<bool>());
    EXPECT_EQ(json["groups"][0]["bench"]["rows"].size(), 4u);  // two cuBLAS rows, two files
    EXPECT_DOUBLE_EQ(json["groups"][0]["bench"]["cublas_fp32_gflops"].get<double>(), 4000.0);
    EXPECT_EQ(json["groups"][1]["name"], "cpu (emulated)");
    EXPECT_TRUE(json["groups"][1]["arch"].is_null());
    EXPECT_TRUE(json["groups"][1]["bench"]["emulated"].get<bool>());
    EXPECT_EQ(json["groups"][1]["bench"]["rows"].size(), 2u);
    EXPECT_EQ(json["failed"].size(), 0u);
}

// A member that never comes up is a line of its own; the group that came up still prints, and the exit
// status says something failed. A group the pool lacks is a usage error that names how many it has.
TEST(CliBenchGroups, AFailedMemberIsALineAndAnUnknownGroupIsAUsageError) {
    kplay::test::TempDir dir;
    const std::string failing = "cmd:" + std::string(KPLAY_TEST_FAKE_WORKER) + " --mode exit-at-start --always";
    const Result ran = run_cli("bench " + kernel("vector_add/01_naive.cu") + " --pool local:1 --pool '" + failing + "' --devices all", dir);
    EXPECT_EQ(ran.code, 5) << ran.output;
    EXPECT_NE(ran.output.find("bench on 1 device group"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("vector_add/01_naive.cu"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("PASS"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("\nfailed  cmd:"), std::string::npos) << ran.output;

    const Result group = run_cli("bench " + kernel("vector_add/01_naive.cu") + " --pool local:1 --group 2", dir);
    EXPECT_EQ(group.code, 2) << group.output;
    EXPECT_NE(group.output.find("kplay-cli: --group 2: the pool has 1 group (kplay-cli devices --pool numbers them)"), std::string::npos)
        << group.output;
    const Result alone = run_cli("bench " + kernel("vector_add/01_naive.cu") + " --group 1", dir);
    EXPECT_EQ(alone.code, 2) << alone.output;
    EXPECT_NE(alone.output.find("--group needs --pool"), std::string::npos) << alone.output;
    const Result both = run_cli("bench " + kernel("vector_add/01_naive.cu") + " --devices all --device cpu", dir);
    EXPECT_EQ(both.code, 2) << both.output;
}

// The pool's only group dies mid-bench (its worker crashes on the second file and every restart fails,
// as a host that dropped out): the first row stays, the rest say they did not run, the group's line says
// why, and nothing waits.
TEST(CliBenchGroups, AGroupThatDiesMidBenchKeepsItsRowsAndSaysWhy) {
    kplay::test::TempDir dir;
    const fs::path started = dir.path() / "started";
    const fs::path script = fake_worker_script(dir, "", "test -e '" + started.string() + "' && exit 1\ntouch '" + started.string() + "'\n");
    const fs::path crash = dir.write("crash.cu", kplay::test::read_file(kernel("grayscale/01_seed_1d.cu")) + "// fake: crash\n");
    std::string files = kernel("grayscale/01_seed_1d.cu") + " " + crash.string();
    for (const char* more : {"matmul/01_seed_naive.cu", "matmul/02_tiled_dynamic_smem.cu", "grayscale/02_seed_2d.cu", "vector_add/01_naive.cu"})
        files += " " + kernel(more);
    const auto start = std::chrono::steady_clock::now();
    const Result ran = run_cli("bench " + files + " --pool local:1", dir, "KPLAY_WORKER=" + script.string());
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
    EXPECT_EQ(ran.code, 5) << ran.output;
    const size_t first = ran.output.find("grayscale/01_seed_1d.cu ");
    ASSERT_NE(first, std::string::npos) << ran.output;
    EXPECT_NE(ran.output.substr(first, ran.output.find('\n', first) - first).find("PASS"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("crash.cu: FAILED at worker: kplay-worker died"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("| not run\n"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("[1] stopped: worker 1 (local) dropped out after "), std::string::npos) << ran.output;
}

// A group of two whose first worker dies for good (it crashes on a file, and no process of it starts
// again): once its client gives up, the rest of the rows run on the group's second worker, and a note
// says so.
TEST(CliBenchGroups, WhenAGroupsWorkerDropsOutAnotherOfTheGroupTakesOver) {
    kplay::test::TempDir dir;
    const fs::path marks = dir.path() / "marks";
    fs::create_directories(marks);
    // The pool's two starts succeed; any later start (a replacement) fails, as on a host that went away.
    const std::string gate = "mkdir '" + (marks / "a").string() + "' 2>/dev/null || mkdir '" + (marks / "b").string() +
                             "' 2>/dev/null || exit 1\n";
    const fs::path script = fake_worker_script(dir, "", gate);
    const fs::path crash = dir.write("crash.cu", kplay::test::read_file(kernel("grayscale/01_seed_1d.cu")) + "// fake: crash\n");
    std::string files = kernel("grayscale/01_seed_1d.cu") + " " + crash.string();
    for (const char* more : {"matmul/01_seed_naive.cu", "matmul/02_tiled_dynamic_smem.cu", "grayscale/02_seed_2d.cu", "vector_add/01_naive.cu"})
        files += " " + kernel(more);
    const Result ran = run_cli("bench " + files + " --pool local:2", dir, "KPLAY_WORKER=" + script.string());
    EXPECT_EQ(ran.code, 5) << ran.output;  // the crash, and the rows its dead worker failed before it gave up
    EXPECT_NE(ran.output.find("[1] note: worker 1 (local) dropped out after "), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find(", so the rest run on worker 2 (local): kplay-worker failed"), std::string::npos) << ran.output;
    EXPECT_EQ(ran.output.find("[1] stopped:"), std::string::npos) << ran.output;
    const size_t last = ran.output.find("\nvector_add/01_naive.cu ");
    ASSERT_NE(last, std::string::npos) << ran.output;
    EXPECT_NE(ran.output.substr(last, ran.output.find('\n', last + 1) - last).find("PASS"), std::string::npos) << ran.output;
}

// A bench on a worker that Slurm places (the test Slurm: scripts/test-slurm), its rows as on a local one.
TEST(CliBenchGroups, AWorkerThatSlurmPlacesBenchesItsGroup) {
    const char* conf = std::getenv("KPLAY_TEST_SLURM_CONF");
    if (!conf || !*conf) {
        const char* why = "no test Slurm: run `eval \"$(scripts/test-slurm)\"` first (scripts/test does, as root)";
        if (std::getenv("KPLAY_REQUIRE_SLURM_TESTS")) FAIL() << why;
        GTEST_SKIP() << why;
    }
    const char* partition = std::getenv("KPLAY_TEST_SLURM_PARTITION");
    const std::string name = partition && *partition ? partition : "kplay";
    kplay::test::TempDir dir;
    const Result ran = run_cli("bench " + kernel("vector_add/01_naive.cu") + " --pool 'slurm:" + name + " x1' --json", dir,
                               "SLURM_CONF=" + std::string(conf) + " KPLAY_REMOTE_WORKER=" + kplay::test::worker_path().string());
    EXPECT_EQ(ran.code, 0) << ran.output;
    const nlohmann::json json = nlohmann::json::parse(ran.output.substr(ran.output.find('{')));
    ASSERT_EQ(json["groups"].size(), 1u) << ran.output;
    EXPECT_NE(json["groups"][0].value("where", "").find("Slurm job"), std::string::npos) << ran.output;
    EXPECT_TRUE(json["groups"][0]["bench"]["rows"][0].value("passed", false)) << ran.output;
}
