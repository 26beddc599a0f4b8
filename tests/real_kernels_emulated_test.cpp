// The shapes today's kernels come in (tests/data/real/, and tests/data/names/every_name.cu for the names
// nvcc's host headers give), each run on the emulated device from its own file as a user would, and
// held to its reference: arguments typed by a template parameter or an alias, a struct with default
// member initialisers, a std::pair seed and a tag argument, values with spaces, a reference that takes the
// sizes, smem and grid over the block, a kernel in a namespace with a static __shared__ array, and a
// file run from inside its task folder. tests/gpu_kernels_test.cpp runs the same files on a GPU.
#include <gtest/gtest.h>

#include <filesystem>

#include "run/engine.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

RunReport run_emulated(const fs::path& path) {
    RunRequest request;
    request.kernel_path = path;
    request.emulate = true;
    request.emulation_timeout_s = 60;
    return test::scratch_engine().run(request);
}

class RealKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(RealKernels, RunAsTheirAuthorsMeant) {
    const RunReport report = run_emulated(test::data_dir() / GetParam());
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_TRUE(report.races.empty()) << describe_race(report.races.front());
    for (const auto& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.summary;
}

INSTANTIATE_TEST_SUITE_P(Files, RealKernels,
                         ::testing::Values("real/template_float_arg.cu", "real/alias_types.cu", "real/struct_defaults.cu",
                                           "real/pair_seed_tag.cu", "real/spaces_and_sizes.cu", "real/namespaced.cu",
                                           "names/every_name.cu"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return test::test_name_of(info.param); });

// The instance's own parameter types decide: `T f` of scale_add<float, 256> took 0.02 as a float.
TEST(RealKernels, ATemplateTypedArgumentIsBoundAsItsInstanceHasIt) {
    const RunReport report = run_emulated(test::data_dir() / "real/template_float_arg.cu");
    ASSERT_TRUE(report.ok()) << report.error;
    ASSERT_EQ(report.arguments.size(), 4u);
    EXPECT_EQ(report.arguments[2].kind, "float32");
    EXPECT_EQ(report.arguments[2].value, "0.02");
}

// A kernel in a namespace runs under its qualified name, named with or without it.
TEST(RealKernels, AKernelInANamespaceIsQualified) {
    const RunReport report = run_emulated(test::data_dir() / "real/namespaced.cu");
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_EQ(report.kernel, "vllm::rms_scale<float>");
}

// "seed.cu" typed from inside grayscale/ is the grayscale task, as the same file named with its folder is.
TEST(RealKernels, TheTaskFolderComesFromWhereTheFileLies) {
    test::TempDir dir;
    fs::create_directory(dir.path() / "grayscale");
    fs::copy_file(test::kernels_dir() / "grayscale" / "01_seed_1d.cu", dir.path() / "grayscale" / "seed.cu");
    const fs::path before = fs::current_path();
    fs::current_path(dir.path() / "grayscale");
    const RunReport report = run_emulated("seed.cu");
    fs::current_path(before);
    ASSERT_TRUE(report.ok()) << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary;
    EXPECT_EQ(report.task, "grayscale");
}

}  // namespace
}  // namespace kplay
