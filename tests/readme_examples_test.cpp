// README's examples run as printed: every ```cuda block whose first line is `// file: NAME` is written
// out and run with kplay-cli (on the emulated device, as in CI), and must pass at its size and every
// test size; and the kplay-cli lines for inspecting a kernel and finding a fault's line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <regex>

#include "test_support.hpp"

namespace {

struct Example {
    std::string name, source;
};

std::vector<Example> readme_examples() {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    static const std::regex block("```cuda\n// file: ([A-Za-z0-9_.]+)\n([\\s\\S]*?)```");
    std::vector<Example> examples;
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), block); it != std::sregex_iterator(); ++it)
        examples.push_back({(*it)[1], "// file: " + (*it)[1].str() + "\n" + (*it)[2].str()});
    return examples;
}

// `from`: the folder to run it in (README's command lines name files from the checkout's root).
std::pair<int, std::string> run_cli(const std::string& arguments, const kplay::test::TempDir& dir, const std::string& from = ".") {
    const std::string command = "cd " + from + " && env KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1 XDG_CACHE_HOME=" +
                                (dir.path() / "cache").string() + " " + kplay::test::cli_path().string() + " " + arguments + " 2>&1";
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return {-1, "cannot run " + command};
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace

TEST(ReadmeExamples, TheVectorAddAndTheSumReductionRunAsPrinted) {
    const std::vector<Example> examples = readme_examples();
    std::vector<std::string> names;
    for (const auto& example : examples) names.push_back(example.name);
    ASSERT_EQ(names, (std::vector<std::string>{"vector_add.cu", "sum_reduction.cu"}));
    kplay::test::TempDir dir;
    for (const auto& example : examples) {
        SCOPED_TRACE(example.name);
        const auto file = dir.write(example.name, example.source);
        const auto [code, output] = run_cli("run " + file.string(), dir);
        EXPECT_EQ(code, 0) << output;
        EXPECT_NE(output.find("check      PASS"), std::string::npos) << output;
        EXPECT_NE(output.find("also at    1025: PASS"), std::string::npos) << output;
        EXPECT_NE(output.find("reference  host function kplay_reference (sandboxed)"), std::string::npos) << output;
    }
}

TEST(ReadmeExamples, TheVectorAddWithoutItsBoundsCheckFails) {
    // What the README says happens: without `if (i < n)` the edge size fails instead of passing by luck.
    std::vector<Example> examples = readme_examples();
    ASSERT_FALSE(examples.empty());
    std::string source = examples.front().source;
    const std::string guarded = "if (i < n) c[i] = a[i] + b[i];";
    ASSERT_NE(source.find(guarded), std::string::npos);
    source.replace(source.find(guarded), guarded.size(), "c[i] = a[i] + b[i];");
    kplay::test::TempDir dir;
    const auto file = dir.write("vector_add.cu", source);
    const auto [code, output] = run_cli("run " + file.string() + " --size 1025", dir);
    EXPECT_NE(code, 0) << output;
    EXPECT_NE(output.find("past the end of"), std::string::npos) << output;
}

// The kplay-cli lines README shows for inspecting a kernel and finding a fault's line run as printed
// (from the checkout's root, without a GPU: `inspect` needs none, and the emulated device names the
// fault's line itself). The `--profile` line needs a GPU and ncu; it is run on the GPU machine.
TEST(ReadmeExamples, TheInspectAndFindFaultLinesRunAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    std::vector<std::string> lines;
    for (size_t at = readme.find("build/bin/kplay-cli "); at != std::string::npos; at = readme.find("build/bin/kplay-cli ", at + 1)) {
        std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
        line = line.substr(0, line.find("  #"));  // the comment after the command
        if (line.rfind("inspect ", 0) == 0 || line.find("--find-fault") != std::string::npos) lines.push_back(line);
    }
    ASSERT_EQ(lines.size(), 3u) << "README's inspect and --find-fault examples";
    kplay::test::TempDir dir;
    const std::string root = kplay::test::kernels_dir().parent_path().string();
    for (const auto& line : lines) {
        SCOPED_TRACE(line);
        const auto [code, output] = run_cli(line, dir, root);
        if (line.find("--find-fault") != std::string::npos) {
            EXPECT_EQ(code, 5) << output;  // the kernel faults; the emulated device names the line
            EXPECT_NE(output.find("faults/01_out_of_bounds_write.cu:12"), std::string::npos) << output;
        } else if (line.find("--sass") != std::string::npos && code == 3) {
            EXPECT_NE(output.find("cuda-nvdisasm"), std::string::npos) << output;  // no nvdisasm here: said so
        } else {
            EXPECT_EQ(code, 0) << output;
            EXPECT_NE(output.find("resources  128 registers/thread"), std::string::npos) << output;
        }
    }
}

// README's sweep of the seed kernel over block sizes, as printed (on the emulated device): every point
// checked, the table, and a winner.
TEST(ReadmeExamples, TheSeedKernelSweepRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string command = "build/bin/kplay-cli sweep kernels_src/grayscale/01_seed_1d.cu";
    const size_t at = readme.find(command);
    ASSERT_NE(at, std::string::npos) << "README's sweep example";
    const std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
    kplay::test::TempDir dir;
    const auto [code, output] = run_cli(line, dir, kplay::test::kernels_dir().parent_path().string());
    EXPECT_EQ(code, 0) << output;
    EXPECT_NE(output.find("exhaustive, 6 points in the space, 6 taken up (0 pruned, 0 from the cache)"), std::string::npos) << output;
    EXPECT_NE(output.find("PASS  <- best"), std::string::npos) << output;
    EXPECT_NE(output.find("best: block_x="), std::string::npos) << output;
}
