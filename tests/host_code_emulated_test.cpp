// Kernel files with their host code, as PyTorch's load_inline and PMPP's exercises write them, run on
// the emulated CPU device with one `// kplay:` line: NVRTC and the host compiler build the kernel without
// the host code, the launch is the wrapper's, and the check passes at every size.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/text.hpp"
#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

class HostCodeFiles : public ::testing::Test {
protected:
    RunReport run(const fs::path& file, const std::string& size = "") {
        RunRequest request;
        request.kernel_path = file;
        request.inputs.size = size;
        request.emulate = true;
        request.emulation_timeout_s = 60;
        return engine_.run(request);
    }
    RunReport run_text(const std::string& name, const std::string& source) { return run(dir_.write(name, source)); }
    test::TempDir dir_;
    Engine engine_{[this] {
        EngineConfig config = default_engine_config();
        config.cache_dir = dir_.path() / "cache";
        return config;
    }()};
};

fs::path data(const std::string& name) { return test::data_dir() / "host_code" / name; }

int kplay_lines(const fs::path& file) {
    const std::string text = test::read_file(file);  // split_lines views it
    int count = 0;
    for (const auto line : split_lines(text)) count += trim(line).rfind("// kplay", 0) == 0;
    return count;
}

TEST_F(HostCodeFiles, TheLoadInlineGrayscaleRunsWithTheWrappersLaunch) {
    EXPECT_EQ(kplay_lines(data("grayscale_load_inline.cu")), 1);
    const RunReport report = run(data("grayscale_load_inline.cu"), "1001x999");
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.launch.block.x, 256);
    EXPECT_EQ(report.launch.grid.x, (1001 * 999 + 255) / 256);
    EXPECT_FALSE(report.launch.auto_grid);
    ASSERT_TRUE(report.spec);
    EXPECT_NE(join(report.spec->inferred, "; ").find("as the launch in rgb_to_grayscale at line 29 launches it"), std::string::npos);
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes;
}

TEST_F(HostCodeFiles, TheLoadInlineMatmulRunsWithItsDim3Launch) {
    EXPECT_EQ(kplay_lines(data("matmul_load_inline.cu")), 1);
    const RunReport report = run(data("matmul_load_inline.cu"), "100x70x30");
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.launch.block.x, 16);
    EXPECT_EQ(report.launch.block.y, 16);
    EXPECT_EQ(report.launch.grid.x, 5);  // cdiv(N=70, 16)
    EXPECT_EQ(report.launch.grid.y, 7);  // cdiv(M=100, 16)
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes;
}

TEST_F(HostCodeFiles, APmppMainRunsWithItsLaunch) {
    EXPECT_EQ(kplay_lines(data("matmul_pmpp_main.cu")), 1);
    const RunReport report = run(data("matmul_pmpp_main.cu"), "33x17x29");
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.launch.grid.x, 2);  // (N + 15) / 16
    EXPECT_EQ(report.launch.grid.y, 3);  // (M + 15) / 16
    ASSERT_TRUE(report.spec);
    EXPECT_NE(join(report.spec->inferred, "; ").find("host function main (lines 28-55)"), std::string::npos)
        << join(report.spec->inferred, "; ");
}

// NVRTC's diagnostics point at the user's line: the host code is blanked, not deleted.
TEST_F(HostCodeFiles, ACompileErrorInTheKernelNamesItsOwnLine) {
    std::string source = test::read_file(data("grayscale_load_inline.cu"));
    const std::string line = "int p = blockIdx.x * blockDim.x + threadIdx.x;";
    ASSERT_NE(source.find(line), std::string::npos);
    source.replace(source.find(line), line.size(), "int p = blockIdx.x * blockDim.x + threadIdx.q;");
    const RunReport report = run_text("gray.cu", source);
    EXPECT_FALSE(report.ok());
    ASSERT_FALSE(report.compile.diagnostics.empty()) << report.error;
    EXPECT_EQ(report.compile.diagnostics.front().line, 19) << report.compile.log;
}

// A wrapper launch kplay does not read leaves kplay's own launch, and says what to add; with it added,
// the launch is the annotation's.
TEST_F(HostCodeFiles, ALaunchNotReadRunsOnKplaysOwnAndNamesTheKey) {
    std::string source = test::read_file(data("grayscale_load_inline.cu"));
    const std::string plain = "int threads = 256;";
    source.replace(source.find(plain), plain.size(), "int threads = pick_threads();");
    const RunReport report = run_text("gray.cu", source);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.launch.auto_grid);
    ASSERT_TRUE(report.spec);
    EXPECT_NE(join(report.spec->inferred, "; ").find("add '// kplay: block=threads grid=cdiv(n,threads)'"), std::string::npos);
}

}  // namespace
}  // namespace kplay
