// README's "Your own task" examples run as printed: every ```cuda block whose first line is
// `// file: NAME` is written out and run with kplay-cli (on the emulated device, as in CI), and must
// pass at its size and every test size.
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

std::pair<int, std::string> run_cli(const std::string& arguments, const kplay::test::TempDir& dir) {
    const char* env = std::getenv("KPLAY_TEST_CLI");
    const std::string cli = env && *env ? env : KPLAY_TEST_CLI;
    const std::string command = "env KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1 XDG_CACHE_HOME=" + (dir.path() / "cache").string() +
                                " " + cli + " " + arguments + " 2>&1";
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
