// README's examples run as printed: every ```cuda block whose first line is `// file: NAME` is written
// out and run with kplay-cli (on the emulated device, as in CI), and must pass at its size and every
// test size; and the kplay-cli lines for inspecting a kernel and finding a fault's line.
#include <gtest/gtest.h>

#include <regex>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using Example = kplay::test::ReadmeExample;
using kplay::test::readme_examples;

// On the emulated device, from the folder `from`, with the cache in `dir`.
kplay::test::CliRun run_cli(const std::string& arguments, const kplay::test::TempDir& dir, const std::string& from = ".",
                            const std::string& environment = "") {
    return kplay::test::run_cli(arguments, dir.path() / "cache", {from, environment});
}

}  // namespace

TEST(ReadmeExamples, EveryTaskExampleRunsAsPrinted) {
    const std::vector<Example> examples = readme_examples();
    std::vector<std::string> names;
    for (const auto& example : examples) names.push_back(example.name);
    for (const char* name : {"vector_add.cu", "sum_reduction.cu", "scaled_row_max.cu", "csr_spmv.cu", "constant_conv.cu", "tail_copy.cu",
                             "gemv_bf16.cu", "dequant_fp8.cu", "layernorm_three_kernels.cu", "cross_entropy.cu", "grid_sum.cu", "tile_sort.cu",
                             "normalize_one_pass.cu", "dropout.cu", "rgba_to_gray.cu", "blur_float_rgb.cu"})
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
    kplay::test::TempDir dir;
    for (const auto& example : examples) {
        SCOPED_TRACE(example.name);
        const auto file = dir.write(example.name, example.source);
        const auto [code, output] = run_cli("run " + file.string(), dir);
        EXPECT_EQ(code, 0) << output;
        EXPECT_NE(output.find("check      PASS"), std::string::npos) << output;
        EXPECT_EQ(output.find("FAIL"), std::string::npos) << output;
        EXPECT_NE(output.find(": PASS"), std::string::npos) << output;  // its test sizes
        if (example.source.find("test=1,1000,1025") != std::string::npos) {
            EXPECT_NE(output.find("also at    1025: PASS"), std::string::npos) << output;
        }
        EXPECT_NE(output.find("reference  host function kplay_reference (sandboxed)"), std::string::npos) << output;
    }
}

TEST(ReadmeExamples, TheVectorAddWithoutItsBoundsCheckFails) {
    // What the README says happens: without `if (i < n)` the edge size fails instead of passing by luck.
    std::string source = kplay::test::readme_example("vector_add.cu");
    const std::string guarded = "if (i < n) c[i] = a[i] + b[i];";
    ASSERT_NE(source.find(guarded), std::string::npos);
    source.replace(source.find(guarded), guarded.size(), "c[i] = a[i] + b[i];");
    kplay::test::TempDir dir;
    const auto file = dir.write("vector_add.cu", source);
    const auto [code, output] = run_cli("run " + file.string() + " --size 1025", dir);
    EXPECT_NE(code, 0) << output;
    EXPECT_NE(output.find("past the end of"), std::string::npos) << output;
}

TEST(ReadmeExamples, TheCrossEntropyWithoutZerosOkIsAnInputErrorNamingTheSize) {
    // What the README says happens without `zeros=ok`: exit status 3 (an input error), not a check failure.
    std::string source = kplay::test::readme_example("cross_entropy.cu");
    const std::string declared = " zeros=ok";
    ASSERT_NE(source.find(declared), std::string::npos);
    source.erase(source.find(declared), declared.size());
    kplay::test::TempDir dir;
    const auto file = dir.write("cross_entropy.cu", source);
    const auto [code, output] = run_cli("run " + file.string(), dir);
    EXPECT_EQ(code, 3) << output;
    EXPECT_NE(output.find("at size 1x1: input 'targets' would be all zeros (init=randint(0,V-1)) at N=1, V=1"), std::string::npos) << output;
}

// The kplay-cli lines README shows for inspecting a kernel and finding a fault's line run as printed
// (from the checkout's root, without a GPU: `inspect` needs none, and the emulated device names the
// fault's line itself; racecheck and --line-access say they need a GPU launch). The `--profile` line
// needs a GPU and ncu; it is run on the GPU machine.
TEST(ReadmeExamples, TheInspectAndFindFaultLinesRunAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    std::vector<std::string> lines;
    for (size_t at = readme.find("build/bin/kplay-cli "); at != std::string::npos; at = readme.find("build/bin/kplay-cli ", at + 1)) {
        std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
        line = line.substr(0, line.find("  #"));  // the comment after the command
        if (line.rfind("inspect ", 0) == 0 || line.find("--find-fault") != std::string::npos || line.find("--line-access") != std::string::npos)
            lines.push_back(line);
    }
    ASSERT_EQ(lines.size(), 5u) << "README's inspect, --find-fault and --line-access examples";
    kplay::test::TempDir dir;
    const std::string root = kplay::test::kernels_dir().parent_path().string();
    for (const auto& line : lines) {
        SCOPED_TRACE(line);
        const auto [code, output] = run_cli(line, dir, root);
        if (line.find("--find-fault=racecheck") != std::string::npos) {
            EXPECT_NE(output.find("--find-fault=racecheck runs compute-sanitizer on a GPU launch; this run was on the emulated device"), std::string::npos)
                << output;
        } else if (line.find("--line-access") != std::string::npos) {
            EXPECT_EQ(code, 0) << output;
            // Without a GPU the emulated device's own count of the same line: the same words as ncu's.
            EXPECT_NE(output.find("memory per source line (the emulated device"), std::string::npos) << output;
            EXPECT_NE(output.find("line   27  loads 4 sectors/request, at the ideal; stores 32 sectors/request, 8x the ideal: uncoalesced"),
                      std::string::npos)
                << output;
        } else if (line.find("--find-fault") != std::string::npos) {
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
    EXPECT_NE(output.find("best: block="), std::string::npos) << output;
}

// README's kplay-cli line that starts `build/bin/kplay-cli START`, run as printed from `dir`, which sees
// the checkout's kernels_src (so a photo's path resolves and what the line writes lands in `dir`).
namespace {

kplay::test::CliRun run_readme_line_beside_kernels(const std::string& start, const kplay::test::TempDir& dir) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const size_t at = readme.find("build/bin/kplay-cli " + start);
    if (at == std::string::npos) return {-1, "README has no line 'build/bin/kplay-cli " + start + "'"};
    const std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
    std::filesystem::create_directory_symlink(kplay::test::kernels_dir(), dir.path() / "kernels_src");
    return run_cli(line, dir, dir.path().string());
}

}  // namespace

// README's first kplay-cli example, as printed: the seed kernel on the repository's photo, written as a
// PNG.
TEST(ReadmeExamples, TheSeedKernelOnTheRepositorysPhotoRunsAsPrinted) {
    kplay::test::TempDir dir;
    const auto [code, output] = run_readme_line_beside_kernels("run kernels_src/grayscale/01_seed_1d.cu --image ", dir);
    EXPECT_EQ(code, 0) << output;
    EXPECT_NE(output.find("grace_hopper.jpg, 517x606"), std::string::npos) << output;
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "gray.png")) << output;
}

// README's RGBA example on the repository's photo, as printed: w and h take its size, and alpha is 255.
// Declared as RGB (3*w*h) the RGBA buffer (4*w*h) is an input error naming image(rgba).
TEST(ReadmeExamples, TheRgbaExampleRunsOnAPhotoAndAMisdeclaredLayoutIsNamed) {
    kplay::test::TempDir dir;
    std::string source = kplay::test::readme_example("rgba_to_gray.cu");
    dir.write("rgba_to_gray.cu", source);
    const auto [code, output] = run_readme_line_beside_kernels("run rgba_to_gray.cu --image ", dir);
    EXPECT_EQ(code, 0) << output;
    EXPECT_NE(output.find("grace_hopper.jpg, 517x606"), std::string::npos) << output;
    EXPECT_NE(output.find("check      PASS"), std::string::npos) << output;

    source.replace(source.find("init=image(rgba)"), 16, "init=image(interleaved)");
    const auto file = dir.write("rgb_declared.cu", source);
    const auto [bad_code, bad_output] = run_cli("run " + file.string() + " --size 40x30", dir);
    EXPECT_EQ(bad_code, 3) << bad_output;
    EXPECT_NE(bad_output.find("input 'rgba' (init=image(interleaved)): the 40x30 image needs 3600 values (3*w*h), but the buffer has 4800 = "
                              "4*w*h, which image(rgba) fills: write init=image(rgba), or make its length 3*w*h"),
              std::string::npos)
        << bad_output;
}

// README's "A GPU elsewhere" lines, as printed, over the test sshd (its host alias stands for gpu-box
// and me@gpu-box:2222): remote-install copies the worker into the test server's own home, then a run
// from the checkout's root names its kernel by a relative path, which must be the client's. The window's
// line is the same link (RemoteWorker and the window tests cover it).
TEST(ReadmeExamples, TheRemoteExampleRunsAsPrintedOverTheTestSshd) {
    const char* host = std::getenv("KPLAY_TEST_SSH_HOST");
    const char* config = std::getenv("KPLAY_TEST_SSH_CONFIG");
    if (!host || !*host || !config || !*config) {
        const std::string missing = "no test sshd: run `eval \"$(scripts/test-sshd)\"` first (.ci/run does)";
        if (std::getenv("KPLAY_REQUIRE_SSH_TESTS")) FAIL() << missing;
        GTEST_SKIP() << missing;
    }
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const size_t section = readme.find("## A GPU elsewhere");
    ASSERT_NE(section, std::string::npos);
    std::vector<std::string> lines;
    for (const std::string start : {"kplay-cli remote-install gpu-box", "kplay-cli run "}) {
        const size_t at = readme.find(start, section);
        ASSERT_NE(at, std::string::npos) << start;
        std::string line = readme.substr(at + 10, readme.find('\n', at) - at - 10);  // after "kplay-cli "
        line = line.substr(0, line.find("  #"));
        for (const std::string name : {"me@gpu-box:2222", "gpu-box"})
            if (const size_t where = line.find(name); where != std::string::npos) line.replace(where, name.size(), host);
        lines.push_back(line);
    }
    kplay::test::TempDir dir;
    const std::string root = kplay::test::kernels_dir().parent_path().string();
    const std::string ssh = "KPLAY_SSH_COMMAND='ssh -F " + std::string(config) + "' ";
    const auto [installed, install_output] = run_cli(lines[0], dir, root, ssh);
    ASSERT_EQ(installed, 0) << lines[0] << "\n" << install_output;
    EXPECT_NE(install_output.find("installed kplay-worker in ~/.kplay on"), std::string::npos) << install_output;
    const auto [code, output] = run_cli(lines[1] + " --size 64", dir, root, ssh);
    EXPECT_EQ(code, 0) << lines[1] << "\n" << output;
    EXPECT_NE(output.find("check      PASS"), std::string::npos) << output;
    EXPECT_EQ(output.find("not found"), std::string::npos) << output;
}

// README's export of the seed kernel for PyTorch, as printed: the snippet is written where -o says
// (never over the kernel), is valid Python, and names the kernel's wrapper (running it needs PyTorch
// and a GPU: tests/gpu_torch_export_test.cpp).
TEST(ReadmeExamples, TheSeedKernelsPyTorchExportRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string command = "build/bin/kplay-cli export kernels_src/grayscale/01_seed_1d.cu --torch";
    const size_t at = readme.find(command);
    ASSERT_NE(at, std::string::npos) << "README's export example";
    std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
    line = line.substr(0, line.find("  #"));
    kplay::test::TempDir dir;
    std::filesystem::create_directory_symlink(kplay::test::kernels_dir(), dir.path() / "kernels_src");
    const auto [code, output] = run_cli(line, dir, dir.path().string());
    EXPECT_EQ(code, 0) << output;
    const auto snippet = dir.path() / "gray_torch.py";
    ASSERT_TRUE(std::filesystem::exists(snippet)) << output;
    EXPECT_NE(kplay::test::read_file(snippet).find("def rgb_to_grayscale_kernel(in_, out, *, w, h):"), std::string::npos);
    if (kplay::test::run_shell("python3 -c pass").first == 0) {
        const auto [compiled, messages] = kplay::test::run_shell("python3 -m py_compile " + snippet.string());
        EXPECT_EQ(compiled, 0) << messages;
    }
}

// The header-folder line README shows runs as printed from the checkout's root: -I serves a file whose
// annotation lacks include= as well as its own include= does.
TEST(ReadmeExamples, TheHeaderFolderCompileLineRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string line = "kplay-cli compile tests/data/cute_like/transpose_mini.cu -I tests/data/cute_like/include";
    ASSERT_NE(readme.find("    " + line + "\n"), std::string::npos);
    kplay::test::TempDir dir;
    const auto [code, output] = run_cli(line.substr(std::string("kplay-cli ").size()), dir, kplay::test::kernels_dir().parent_path().string());
    EXPECT_EQ(code, 0) << output;
    const auto [missing, said] = run_cli("compile tests/data/cute_like/transpose_mini.cu -I no_such_dir", dir, kplay::test::kernels_dir().parent_path().string());
    EXPECT_NE(missing, 0);
    EXPECT_NE(said.find("-I no_such_dir: no folder"), std::string::npos) << said;
}

// README's race and who-wrote lines, as printed (the emulated device): the reduction that lost its
// barrier fails with the race at an order where its sum comes out right, and the seed kernel's element
// names its writer and how its index came about.
TEST(ReadmeExamples, TheRaceAndWhoWroteLinesRunAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    std::vector<std::string> lines;
    for (size_t at = readme.find("build/bin/kplay-cli "); at != std::string::npos; at = readme.find("build/bin/kplay-cli ", at + 1)) {
        const std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
        const bool emulated = line.find("--device cpu") != std::string::npos;  // the GPU's racecheck line is run on the GPU
        if (emulated && (line.find("kernels_src/races/") != std::string::npos || line.find("--who-wrote") != std::string::npos))
            lines.push_back(line);
    }
    ASSERT_EQ(lines.size(), 3u) << "README's race, race-then-fault and --who-wrote examples";
    const auto line_with = [&lines](const std::string& text) {
        for (const std::string& line : lines)
            if (line.find(text) != std::string::npos) return line;
        ADD_FAILURE() << "no README line runs " << text;
        return std::string();
    };
    kplay::test::TempDir dir;
    const std::string root = kplay::test::kernels_dir().parent_path().string();
    {
        const auto [code, output] = run_cli(line_with("races/11_race_then_fault.cu"), dir, root);
        EXPECT_EQ(code, 5) << output;  // the run failed, and says which race came first
        EXPECT_NE(output.find("run failed: A race came first, the likely cause: shared array 'dynamic shared memory', element 0: "
                              "thread (0,0,0) of block (0,0,0) writes it at races/11_race_then_fault.cu:26 and thread (1,0,0) of the same "
                              "block reads it at races/11_race_then_fault.cu:25, with no __syncthreads() between (127 such conflicts "
                              "between these lines). Then thread (1,0,0) of block ("),
                  std::string::npos)
            << output;
        // The fault is the first block's to reach it, which the worker threads decide (README says so).
        EXPECT_TRUE(std::regex_search(output, std::regex(R"(Then thread \(1,0,0\) of block \(\d+,0,0\) read \d+ bytes past the end of )"
                                                         R"('dynamic shared memory' \(512 bytes\) at races/11_race_then_fault.cu:28)")))
            << output;
    }
    {
        const auto [code, output] = run_cli(line_with("races/01_reduction_missing_barrier.cu"), dir, root);
        EXPECT_EQ(code, 6) << output;  // a check failure
        EXPECT_NE(output.find("check      RACE on shared array 'partial' at line 30 (no __syncthreads() between). "
                              "The output happened to match this time (PASS"),
                  std::string::npos)
            << output;
        EXPECT_NE(output.find("race       read-write in reduce_missing_barrier: shared array 'partial', element 2: thread (0,0,0) of block "
                              "(0,0,0) reads it at races/01_reduction_missing_barrier.cu:30 and thread (2,0,0) of the same block writes it at "
                              "races/01_reduction_missing_barrier.cu:30, with no __syncthreads() between"),
                  std::string::npos)
            << output;
        EXPECT_NE(output.find("The output happened to match this time (PASS"), std::string::npos) << output;
    }
    {
        const auto [code, output] = run_cli(line_with("--who-wrote"), dir, root);
        EXPECT_EQ(code, 0) << output;
        EXPECT_NE(output.find("who wrote  out[1000]: written by thread (232,0,0) of block (3,0,0) at grayscale/01_seed_1d.cu:13; "
                              "i = blockIdx.x*blockDim.x + threadIdx.x = 3*256 + 232"),
                  std::string::npos)
            << output;
    }
}

// README's pool line, as printed (from the checkout's root, the driver hidden as in CI): two local
// workers on the emulated device are one group of two, and `devices` exits 4 as it does without a GPU.
TEST(ReadmeExamples, TheDevicesPoolLineRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string command = "build/bin/kplay-cli devices --pool ";
    const size_t at = readme.find(command);
    ASSERT_NE(at, std::string::npos) << "README's pool example";
    std::string line = readme.substr(at + 20, readme.find('\n', at) - at - 20);
    line = line.substr(0, line.find("  #"));
    line.erase(line.find_last_not_of(' ') + 1);
    EXPECT_EQ(line, "devices --pool local:2");
    kplay::test::TempDir dir;
    const auto [code, output] = run_cli(line, dir, kplay::test::kernels_dir().parent_path().string());
    EXPECT_EQ(code, 4) << output;
    EXPECT_NE(output.find("pool: 2 workers in 1 group\n"), std::string::npos) << output;
    EXPECT_NE(output.find("  cpu  2 workers: local x2\n"), std::string::npos) << output;
    EXPECT_EQ(output.find("failed"), std::string::npos) << output;
}

// README's sweep over a pool, as printed (from the checkout's root, the driver hidden as in CI): both
// workers run points, each line names its worker, and the table ends with the points each ran.
TEST(ReadmeExamples, TheSweepPoolLineRunsAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string prefix = "build/bin/kplay-cli ";
    const size_t at = readme.find(prefix + "sweep kernels_src/grayscale/01_seed_1d.cu --param \"block=32..1024 step *2\" --pool");
    ASSERT_NE(at, std::string::npos) << "README's sweep --pool example";
    const std::string line = readme.substr(at + prefix.size(), readme.find('\n', at) - at - prefix.size());
    EXPECT_EQ(line, "sweep kernels_src/grayscale/01_seed_1d.cu --param \"block=32..1024 step *2\" --pool local:2");
    kplay::test::TempDir dir;
    const auto [code, output] = run_cli(line, dir, kplay::test::kernels_dir().parent_path().string());
    EXPECT_EQ(code, 0) << output;
    EXPECT_NE(output.find("kplay-cli: 2 workers sweep; the confirm round runs on worker 1\n"), std::string::npos) << output;
    for (const char* worker : {"(worker 1)\n", "(worker 2)\n", "  worker 1 (local): ", "  worker 2 (local): "})
        EXPECT_NE(output.find(worker), std::string::npos) << worker << "\n" << output;
    // Six points, each run once: three on each worker (one point in flight on each, alike points).
    EXPECT_NE(output.find("6 taken up (0 pruned, 0 from the cache)"), std::string::npos) << output;
    EXPECT_NE(output.find("best: "), std::string::npos) << output;
}

// README's bench lines over device groups, as printed (from the checkout's root, the driver hidden as in
// CI): --devices all is the emulated device's column here; --pool local:2 --group 1 --json its group.
TEST(ReadmeExamples, TheBenchOverGroupsLinesRunAsPrinted) {
    const std::string readme = kplay::test::read_file(KPLAY_TEST_README);
    const std::string prefix = "build/bin/kplay-cli ";
    auto line_of = [&](const std::string& start) {
        const size_t at = readme.find(prefix + start);
        if (at == std::string::npos) return std::string();
        std::string line = readme.substr(at + prefix.size(), readme.find('\n', at) - at - prefix.size());
        line = line.substr(0, line.find("  #"));
        line.erase(line.find_last_not_of(' ') + 1);
        return line;
    };
    const std::string all = line_of("bench kernels_src/grayscale/01_seed_1d.cu kernels_src/matmul/01_seed_naive.cu --devices");
    EXPECT_EQ(all, "bench kernels_src/grayscale/01_seed_1d.cu kernels_src/matmul/01_seed_naive.cu --devices all");
    const std::string group = line_of("bench kernels_src/vector_add/01_naive.cu --pool");
    EXPECT_EQ(group, "bench kernels_src/vector_add/01_naive.cu --pool local:2 --group 1 --json");
    kplay::test::TempDir dir;
    const std::string root = kplay::test::kernels_dir().parent_path().string();
    const auto [code, output] = run_cli(all, dir, root);
    EXPECT_EQ(code, 0) << output;
    for (const char* expected : {"bench on 1 device group: ", "[1] cpu (emulated): Emulated CPU", "| [1] cpu (emulated)\n",
                                 "cuBLAS rows need a GPU", "2 checked launches each"})
        EXPECT_NE(output.find(expected), std::string::npos) << expected << "\n" << output;
    const size_t gray = output.find("\ngrayscale/01_seed_1d.cu ");
    ASSERT_NE(gray, std::string::npos) << output;
    EXPECT_EQ(output.substr(output.find('\n', gray + 1) - 4, 4), "PASS") << output;
    const auto [json_code, json_output] = run_cli(group, dir, root);
    EXPECT_EQ(json_code, 0) << json_output;
    const nlohmann::json json = nlohmann::json::parse(json_output.substr(json_output.find('{')));
    ASSERT_EQ(json["groups"].size(), 1u) << json_output;
    EXPECT_EQ(json["groups"][0]["group"], 1);
    EXPECT_EQ(json["groups"][0]["name"], "cpu (emulated)");
    EXPECT_TRUE(json["groups"][0]["bench"]["rows"][0]["passed"].get<bool>()) << json_output;
}
