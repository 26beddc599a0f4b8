// README's load_inline example runs as printed: the source under "A load_inline source or a main(), as
// it is" is written out and run with kplay-cli on the emulated device, and each line README shows of the
// output appears in it as shown.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>

#include "base/text.hpp"
#include "test_support.hpp"

namespace {

std::string between(const std::string& text, size_t from, const std::string& open, const std::string& close) {
    const size_t start = text.find(open, from);
    if (start == std::string::npos) return "";
    const size_t end = text.find(close, start + open.size());
    return end == std::string::npos ? "" : text.substr(start + open.size(), end - start - open.size());
}

TEST(HostCodeReadme, TheLoadInlineExampleRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const size_t section = readme.find("### A load_inline source or a main(), as it is");
    ASSERT_NE(section, std::string::npos);
    const std::string source = between(readme, section, "```cuda\n", "```");
    ASSERT_NE(source.find("torch::Tensor rgb_to_grayscale"), std::string::npos);
    const size_t command_at = readme.find("`kplay-cli run gray_inline.cu` prints", section);
    ASSERT_NE(command_at, std::string::npos);
    const std::string shown = between(readme, command_at, "```\n", "```");
    ASSERT_FALSE(shown.empty());

    kplay::test::TempDir dir;
    dir.write("gray_inline.cu", source);
    const std::string command = "cd " + dir.path().string() + " && env KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1 XDG_CACHE_HOME=" +
                                (dir.path() / "cache").string() + " " + kplay::test::cli_path().string() + " run gray_inline.cu 2>&1";
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
    for (const auto line : kplay::split_lines(shown)) EXPECT_NE(output.find(std::string(line)), std::string::npos) << line << "\n\n" << output;
}

}  // namespace
