// kplay-cli end to end, as a user or an editor would call it: exit codes and what it prints.
//
// These run without a GPU: KPLAY_CUDA_DRIVER points at a missing library so the "no driver" path is
// exercised the same way on every machine, GPU machines included.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using Result = kplay::test::CliRun;

// On the emulated device (the driver hidden), with `cache` as its cache folder.
Result run_cli(const std::string& arguments, const kplay::test::TempDir& cache) { return kplay::test::run_cli(arguments, cache.path()); }

std::string kernel(const std::string& relative) { return (kplay::test::kernels_dir() / relative).string(); }

}  // namespace

TEST(Cli, HelpShowsExamplesAndExitCodes) {
    kplay::test::TempDir cache;
    const Result result = run_cli("--help", cache);
    EXPECT_EQ(result.code, 0);
    EXPECT_NE(result.output.find("Examples:"), std::string::npos);
    EXPECT_NE(result.output.find("Exit codes:"), std::string::npos);
    EXPECT_NE(run_cli("run --help", cache).output.find("--block"), std::string::npos);
    // Every subcommand is listed, completion included, and --image is the input image it is (RGB for
    // the grayscale task), not a "grayscale" one.
    EXPECT_NE(result.output.find("completion                  Print the bash completion script"), std::string::npos) << result.output;
    const std::string run_help = run_cli("run --help", cache).output;
    EXPECT_NE(run_help.find("--image TEXT                Input image (PNG or JPEG)"), std::string::npos) << run_help;
    EXPECT_EQ(run_help.find("Grayscale input image"), std::string::npos);
    // A subcommand's help ends with its own examples, not every command's.
    const std::string debug_help = run_cli("debug --help", cache).output;
    EXPECT_NE(debug_help.find("  kplay-cli debug kernels_src/"), std::string::npos) << debug_help;
    EXPECT_EQ(debug_help.find("kplay-cli bench"), std::string::npos) << debug_help;
    EXPECT_NE(debug_help.find("Exit codes:"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwo) {
    kplay::test::TempDir cache;
    EXPECT_EQ(run_cli("", cache).code, 2);
    EXPECT_EQ(run_cli("frobnicate", cache).code, 2);
    EXPECT_EQ(run_cli("run", cache).code, 2);
    EXPECT_EQ(run_cli("run " + kernel("matmul/01_seed_naive.cu") + " --repeat 0", cache).code, 2);
    const Result bad_block = run_cli("run " + kernel("matmul/01_seed_naive.cu") + " --block 16,x", cache);
    EXPECT_NE(bad_block.output.find("--block expects numbers"), std::string::npos) << bad_block.output;
    EXPECT_EQ(bad_block.code, 3);
    // A word where an ordinal goes is named as what --device takes, not as a block's numbers.
    for (const char* command : {"run", "bench", "sweep"}) {
        const Result bad_device = run_cli(std::string(command) + " " + kernel("grayscale/01_seed_1d.cu") + " --device emulated", cache);
        EXPECT_NE(bad_device.output.find("--device expects a GPU's ordinal (0, 1, ...) or cpu"), std::string::npos)
            << command << ": " << bad_device.output;
        EXPECT_NE(bad_device.code, 0);
    }
}

TEST(Cli, CompileSucceedsAndCachesAcrossProcesses) {
    kplay::test::TempDir cache;
    const Result first = run_cli("compile " + kernel("matmul/03_tiled_static_smem.cu"), cache);
    EXPECT_EQ(first.code, 0) << first.output;
    EXPECT_NE(first.output.find("cache miss"), std::string::npos) << first.output;
    const Result second = run_cli("compile " + kernel("matmul/03_tiled_static_smem.cu"), cache);
    EXPECT_NE(second.output.find("cache hit"), std::string::npos) << second.output;
}

TEST(Cli, CompileErrorPrintsGccStyleWithColumnAndExitsOne) {
    kplay::test::TempDir dir;
    const auto file = dir.write("matmul/broken.cu",
                                "// kplay: task=matmul\n__global__ void k(float* a, int n) {\n    int i = threadIdx.x\n"
                                "    a[i] = missing_name;\n}\n");
    const Result result = run_cli("compile " + file.string(), dir);
    EXPECT_EQ(result.code, 1) << result.output;
    EXPECT_NE(result.output.find(file.string() + ":4:5: error: expected a \";\""), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("      a[i] = missing_name;\n      ^\n"), std::string::npos) << result.output;

    const Result json = run_cli("compile --json " + file.string(), dir);
    const auto parsed = nlohmann::json::parse(json.output);
    EXPECT_FALSE(parsed["ok"].get<bool>());
    EXPECT_EQ(parsed["diagnostics"][0]["line"], 4);
    EXPECT_EQ(parsed["diagnostics"][0]["column"], 5);
}

TEST(Cli, PtxOutputIsWritten) {
    kplay::test::TempDir dir;
    const Result result = run_cli("compile " + kernel("grayscale/01_seed_1d.cu") + " --arch sm_80 --ptx " +
                                  (dir.path() / "k.ptx").string(), dir);
    EXPECT_EQ(result.code, 0) << result.output;
    const std::string ptx = kplay::test::read_file(dir.path() / "k.ptx");
    EXPECT_NE(ptx.find(".target sm_80"), std::string::npos);
    EXPECT_NE(ptx.find("rgb_to_grayscale_kernel"), std::string::npos);
}

TEST(Cli, MissingFileIsAnInputError) {
    kplay::test::TempDir cache;
    const Result compile = run_cli("compile /no/such/kernel.cu", cache);
    EXPECT_EQ(compile.code, 3);
    EXPECT_NE(compile.output.find("Kernel file not found"), std::string::npos) << compile.output;
    EXPECT_EQ(run_cli("run /no/such/kernel.cu", cache).code, 3);
}

TEST(Cli, WithoutADriverRunFallsBackToTheEmulatedDevice) {
    kplay::test::TempDir cache;
    const Result run = run_cli("run " + kernel("grayscale/01_seed_1d.cu"), cache);
    EXPECT_EQ(run.code, 0) << run.output;
    EXPECT_NE(run.output.find("compile    compute_90"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("Emulated CPU"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("say nothing about GPU speed"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("check      PASS"), std::string::npos) << run.output;

    // An ordinal asked for means a GPU: without one, say so plainly.
    const Result gpu = run_cli("run --device 0 " + kernel("grayscale/01_seed_1d.cu"), cache);
    EXPECT_EQ(gpu.code, 4) << gpu.output;
    EXPECT_NE(gpu.output.find("No CUDA driver"), std::string::npos) << gpu.output;

    const Result devices = run_cli("devices --json", cache);
    EXPECT_EQ(devices.code, 4);
    const auto parsed = nlohmann::json::parse(devices.output);
    EXPECT_FALSE(parsed["driver_ready"].get<bool>());
    EXPECT_TRUE(parsed["devices"].empty());
    EXPECT_TRUE(parsed["emulated_device"]["available"].get<bool>());
    EXPECT_TRUE(parsed["emulated_device"]["default"].get<bool>());
    const Result listed = run_cli("devices", cache);
    EXPECT_NE(listed.output.find("[cpu] Emulated CPU"), std::string::npos) << listed.output;
}

TEST(Cli, RunOnTheEmulatedDeviceReportsFaultsAndPrintf) {
    kplay::test::TempDir dir;
    const auto file = dir.write("grayscale/oob.cu",
                                "__global__ void k(const unsigned char* in, unsigned char* out, int n) {\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i == 0) printf(\"n is %d\\n\", n);\n"
                                "    if (i < n) out[i + 1] = in[3 * i];\n"
                                "}\n");
    const Result run = run_cli("run --device cpu --size 64x4 " + file.string(), dir);
    EXPECT_EQ(run.code, 5) << run.output;
    EXPECT_NE(run.output.find("[block (0,0,0) thread (0,0,0)] n is 256"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("wrote 1 byte past the end of 'out' (256 bytes) at grayscale/oob.cu:4"), std::string::npos)
        << run.output;
}

TEST(Cli, RunJsonReportsTheStageAndCompileDiagnostics) {
    kplay::test::TempDir dir;
    const auto file = dir.write("grayscale/bad.cu", "__global__ void k(unsigned char* x, unsigned char* o, int n) { o[0] = ; }\n");
    const Result result = run_cli("run --json " + file.string(), dir);
    EXPECT_EQ(result.code, 1) << result.output;
    const auto parsed = nlohmann::json::parse(result.output);
    EXPECT_EQ(parsed["stage"], "compile");
    EXPECT_EQ(parsed["schema"], 2);
    EXPECT_EQ(parsed["compile"]["diagnostics"][0]["severity"], "error");
}

TEST(Cli, SpecProblemsAreInputErrors) {
    kplay::test::TempDir dir;
    const auto file = dir.write("matmul/two.cu", "__global__ void a(float* x) {}\n__global__ void b(float* x) {}\n");
    const Result result = run_cli("run " + file.string(), dir);
    EXPECT_EQ(result.code, 3);
    EXPECT_NE(result.output.find("2 kernels: a (line 1), b (line 2)"), std::string::npos) << result.output;
    // Nothing unknown is printed before the error: no "task ?, kernel ?" line.
    EXPECT_EQ(result.output.find("?"), std::string::npos) << result.output;
}

// A wrong argument binding or an unknown name is the user's input, on the emulated device as on a GPU
// (the plan binds the arguments before either device runs anything): exit 3, at the launch stage.
TEST(Cli, ABadBindingIsAnInputErrorOnTheEmulatedDevice) {
    kplay::test::TempDir dir;
    std::string seed = kplay::test::read_file(kplay::test::kernels_dir() / "grayscale/01_seed_1d.cu");
    seed = seed.substr(seed.find('\n') + 1);  // without its annotation
    for (const std::string args : {"in,oun,n", "in", "xin,out,n", "in,out,q"}) {
        const auto file = dir.write("grayscale/bound.cu", "// kplay: kernel=rgb_to_grayscale_kernel args=" + args + " launch=1d block=256\n" + seed);
        const Result result = run_cli("run " + file.string() + " --device cpu", dir);
        EXPECT_EQ(result.code, 3) << args << ": " << result.output;
        EXPECT_NE(result.output.find("launch failed:"), std::string::npos) << args << ": " << result.output;
    }
    // A bad --arg stops the run before a launch is planned: no made-up grid or "0 threads" coverage.
    const Result bad_arg = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --device cpu --arg n=abc", dir);
    EXPECT_EQ(bad_arg.code, 3) << bad_arg.output;
    EXPECT_NE(bad_arg.output.find("launch failed: --arg n=abc"), std::string::npos) << bad_arg.output;
    EXPECT_EQ(bad_arg.output.find("coverage"), std::string::npos) << bad_arg.output;
    EXPECT_EQ(bad_arg.output.find("  launch     grid"), std::string::npos) << bad_arg.output;
}

TEST(Cli, BenchWithoutADeviceRunsOnTheEmulatedDevice) {
    kplay::test::TempDir cache;
    const Result table = run_cli("bench " + kernel("grayscale/01_seed_1d.cu") + " " + kernel("matmul/03_tiled_static_smem.cu"), cache);
    EXPECT_EQ(table.code, 0) << table.output;
    EXPECT_NE(table.output.find("device: Emulated CPU"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("say nothing about GPU speed"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("cuBLAS rows need a GPU"), std::string::npos) << table.output;
    EXPECT_EQ(table.output.find("cuBLAS SGEMM"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("matmul/03_tiled_static_smem.cu"), std::string::npos) << table.output;
    EXPECT_NE(run_cli("bench --help", cache).output.find("--no-cublas"), std::string::npos);
}

// inspect needs no GPU: NVRTC's ptxas report and PTX; SASS where nvdisasm is installed, else a message
// that says what provides it (and --sass then exits 3).
TEST(Cli, InspectShowsResourcesAndPerLineCountsWithoutAGpu) {
    kplay::test::TempDir cache;
    const Result text = run_cli("inspect " + kernel("matmul/03_tiled_static_smem.cu"), cache);
    EXPECT_EQ(text.code, 0) << text.output;
    EXPECT_NE(text.output.find("resources  32 registers/thread"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("2048 B static smem"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("occupancy  8 blocks/SM of 256 threads, 100%"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("for (int i=0; i<TW; ++i) p += ms[tr][i] * ns[i][tc];"), std::string::npos) << text.output;

    const Result json = run_cli("inspect " + kernel("matmul/03_tiled_static_smem.cu") + " --json --block 32,32", cache);
    ASSERT_EQ(json.code, 0) << json.output;
    const auto parsed = nlohmann::json::parse(json.output.substr(json.output.find('{')));
    EXPECT_EQ(parsed["kernel"], "matmul_tiled_k<16>");
    EXPECT_EQ(parsed["resources"]["registers"], 32);
    EXPECT_EQ(parsed["block_threads"], 1024);
    EXPECT_EQ(parsed["occupancy"]["blocks_per_sm"], 2);
    EXPECT_EQ(parsed["instructions_by_line"]["27"]["ptx"], 48);
    ASSERT_FALSE(parsed["ptx"].empty());
    const bool have_sass = !parsed["sass"].empty();
    const Result sass = run_cli("inspect " + kernel("faults/01_out_of_bounds_write.cu") + " --sass", cache);
    if (have_sass) {
        EXPECT_EQ(sass.code, 0) << sass.output;
        EXPECT_NE(sass.output.find("STG.E.U8"), std::string::npos) << sass.output;  // the faulting byte store
    } else {
        EXPECT_EQ(sass.code, 3) << sass.output;
        EXPECT_NE(sass.output.find("cuda-nvdisasm"), std::string::npos) << sass.output;
        EXPECT_NE(parsed["sass_problem"].get<std::string>().find("PTX works without it"), std::string::npos);
    }
    const Result broken = run_cli("inspect " + kernel("faults/11_syntax_error.cu"), cache);
    EXPECT_EQ(broken.code, 1) << broken.output;
    EXPECT_NE(broken.output.find("error"), std::string::npos) << broken.output;
}

// --find-fault looks for the line of a GPU fault; on the emulated device the run names its line itself.
// --profile profiles GPU runs only.
TEST(Cli, FindFaultAndProfileOnTheEmulatedDevice) {
    kplay::test::TempDir cache;
    const Result fault = run_cli("run " + kernel("faults/01_out_of_bounds_write.cu") + " --find-fault --json", cache);
    EXPECT_EQ(fault.code, 5) << fault.output;
    const auto parsed = nlohmann::json::parse(fault.output.substr(fault.output.find('{')));
    EXPECT_EQ(parsed["error_line"], 12);
    EXPECT_TRUE(parsed["fault_locations"].empty());  // nothing to look for: the emulated device named the line

    // --profile is for GPU runs: on the emulated device it says so and the run's own exit code stands.
    const Result profiled = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --size 64x48 --profile", cache);
    EXPECT_EQ(profiled.code, 0) << profiled.output;
    EXPECT_NE(profiled.output.find("profile    none: Nsight Compute profiles GPU runs; this one ran on the emulated device."), std::string::npos)
        << profiled.output;
}

// --find-fault=TOOL picks compute-sanitizer's tool by name; racecheck and its kin look at GPU launches,
// so on the emulated device they say so; --line-access there gives the tracked run's own counts.
TEST(Cli, SanitizerToolsAndLineAccessOnTheEmulatedDevice) {
    kplay::test::TempDir cache;
    const Result bogus = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --size 64x48 --find-fault=leakcheck", cache);
    EXPECT_EQ(bogus.code, 2) << bogus.output;
    EXPECT_NE(bogus.output.find("--find-fault=leakcheck: no such compute-sanitizer tool (known: memcheck, racecheck, synccheck, initcheck)"),
              std::string::npos)
        << bogus.output;
    const Result race = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --size 64x48 --find-fault=racecheck", cache);
    EXPECT_EQ(race.code, 0) << race.output;
    EXPECT_NE(race.output.find("no line    --find-fault=racecheck runs compute-sanitizer on a GPU launch; this run was on the emulated device"),
              std::string::npos)
        << race.output;
    const Result json = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --size 64x48 --find-fault=synccheck --line-access --json", cache);
    ASSERT_EQ(json.code, 0) << json.output;
    const auto parsed = nlohmann::json::parse(json.output.substr(json.output.find('{')));
    EXPECT_TRUE(parsed["fault_locations"].empty());
    // The emulated device counted the same lines itself: the grayscale line loads 3 bytes a thread, stores 1.
    EXPECT_EQ(parsed["line_access"]["problem"], "");
    ASSERT_FALSE(parsed["line_access"]["profile"]["lines"].empty()) << json.output;
    EXPECT_EQ(parsed["line_access"]["profile"]["origin"], "emulated device");
    const Result untracked = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --size 64x48 --no-track --line-access --json", cache);
    ASSERT_EQ(untracked.code, 0) << untracked.output;
    const auto plain = nlohmann::json::parse(untracked.output.substr(untracked.output.find('{')));
    EXPECT_EQ(plain["line_access"]["problem"], "the emulated device counts memory per line on a tracked run; this one had --no-track");
}

// kplay-cli sweep: the table and JSON, a bad parameter, and --apply the only way it writes the file.
TEST(CliSweep, TimesEveryCheckedPointAndNeverWritesWithoutApply) {
    kplay::test::TempDir cache;
    const std::string source = kplay::test::read_file(kernel("matmul/02_tiled_dynamic_smem.cu"));
    const auto file = cache.write("tiled.cu", source);
    const Result result = run_cli("sweep " + file.string() + " --param tw=8,16,64 --size 32x32x32 --confirm 2 --json", cache);
    ASSERT_EQ(result.code, 0) << result.output;
    const auto json = nlohmann::json::parse(result.output.substr(result.output.find('{')));
    EXPECT_EQ(json.at("emulated"), true);
    EXPECT_EQ(json.at("sizes"), "32x32x32");
    ASSERT_EQ(json.at("points").size(), 3u);
    EXPECT_EQ(json.at("pruned"), 1);
    EXPECT_EQ(json.at("points").at(2).at("label"), "tw=64");
    EXPECT_EQ(json.at("points").at(2).at("reason"), "The block has 4096 threads (64,64,1); the device allows at most 1024 per block (4x the limit)");
    EXPECT_TRUE(json.at("best") == "tw=8" || json.at("best") == "tw=16") << json.at("best");
    EXPECT_EQ(kplay::test::read_file(file), source);  // untouched without --apply
    EXPECT_FALSE(std::filesystem::exists(file.string() + ".orig"));

    const Result table = run_cli("sweep " + file.string() + " --param tw=8,16 --size 32x32x32", cache);
    ASSERT_EQ(table.code, 0) << table.output;
    EXPECT_NE(table.output.find("2 taken up (0 pruned, 2 from the cache)"), std::string::npos) << table.output;  // resumed from the JSON run
    EXPECT_NE(table.output.find("PASS  <- best"), std::string::npos) << table.output;
}

TEST(CliSweep, ApplyWritesOnlyTheAnnotationAndKeepsTheOriginalOnce) {
    kplay::test::TempDir cache;
    const std::string source = kplay::test::read_file(kernel("matmul/02_tiled_dynamic_smem.cu"));
    const auto file = cache.write("tiled.cu", source);
    const Result result = run_cli("sweep " + file.string() + " --param tw=8 --size 32x32x32 --confirm 0 --apply", cache);
    ASSERT_EQ(result.code, 0) << result.output;
    EXPECT_NE(result.output.find("wrote the best point into"), std::string::npos) << result.output;
    const std::string written = kplay::test::read_file(file);
    std::string expected = source;
    expected.replace(expected.find("tw=16"), 5, "tw=8");
    EXPECT_EQ(written, expected);
    EXPECT_EQ(kplay::test::read_file(file.string() + ".orig"), source);
    // A second apply changes the file again but keeps the first original.
    ASSERT_EQ(run_cli("sweep " + file.string() + " --param tw=32 --size 32x32x32 --confirm 0 --apply", cache).code, 0);
    EXPECT_NE(kplay::test::read_file(file).find("tw=32 launch=2d"), std::string::npos);
    EXPECT_EQ(kplay::test::read_file(file.string() + ".orig"), source);
}

TEST(CliSweep, BadParametersAndAnAllPrunedSpaceSaySo) {
    kplay::test::TempDir cache;
    const Result unknown = run_cli("sweep " + kernel("matmul/02_tiled_dynamic_smem.cu") + " --param q=1,2", cache);
    EXPECT_EQ(unknown.code, 3) << unknown.output;
    EXPECT_NE(unknown.output.find("unknown parameter 'q'"), std::string::npos) << unknown.output;
    const Result none = run_cli("sweep " + kernel("grayscale/01_seed_1d.cu") + " --param block_x=2048,4096 --size 64x64", cache);
    EXPECT_EQ(none.code, 6) << none.output;
    EXPECT_NE(none.output.find("best: none: every point was pruned"), std::string::npos) << none.output;
    // A range's step typed without quotes arrives as separate words and is put back together.
    const Result unquoted = run_cli("sweep " + kernel("grayscale/01_seed_1d.cu") + " --param block_x=1024..4096 step *2 --size 64x64", cache);
    EXPECT_NE(unquoted.output.find("3 points in the space, 3 taken up (2 pruned"), std::string::npos) << unquoted.output;
    const Result budget = run_cli("sweep " + kernel("grayscale/01_seed_1d.cu") + " --param block_x=64 --budget soon", cache);
    EXPECT_EQ(budget.code, 3) << budget.output;
    EXPECT_NE(budget.output.find("The budget is a number of points (40) or seconds (90s), not 'soon'."), std::string::npos) << budget.output;
}

namespace {

// kplay-cli sweep over matmul 02's tw=8,16,32 (plus `extra` arguments), sent Ctrl+C after `after`: how
// long it took to exit, its exit status and what it printed.
struct Interrupted {
    double exit_s = 0;
    int status = 0;
    std::string output;
};

Interrupted interrupt_sweep(const std::vector<std::string>& extra, std::chrono::milliseconds after) {
    kplay::test::TempDir cache;
    const std::string out = (cache.path() / "out.txt").string(), file = kernel("matmul/02_tiled_dynamic_smem.cu");
    const std::string cli = kplay::test::cli_path().string(), xdg = "XDG_CACHE_HOME=" + cache.path().string();
    const std::string path = std::string("PATH=") + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    std::vector<std::string> args{cli, "sweep", file, "--param", "tw=8,16,32", "--size", "256"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    Interrupted result;
    const pid_t pid = fork();
    if (pid < 0) return result;
    if (pid == 0) {
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        char* env[] = {const_cast<char*>("KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1"), const_cast<char*>(xdg.c_str()),
                       const_cast<char*>(path.c_str()), nullptr};
        execve(cli.c_str(), argv.data(), env);
        _exit(127);
    }
    std::this_thread::sleep_for(after);
    const auto sent = std::chrono::steady_clock::now();
    kill(pid, SIGINT);
    for (int i = 0; i < 100 && waitpid(pid, &result.status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    result.exit_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    result.output = kplay::test::read_file(out);
    return result;
}

}  // namespace

TEST(CliSweep, CtrlCCancelsAtOncePrintsWhatFinishedAndExits130) {
    const Interrupted sweep = interrupt_sweep({}, std::chrono::milliseconds(1500));  // the first point is under way
    EXPECT_LT(sweep.exit_s, 3.0);
    ASSERT_TRUE(WIFEXITED(sweep.status));
    EXPECT_EQ(WEXITSTATUS(sweep.status), 130);
    EXPECT_NE(sweep.output.find("cancelled: the points above are those finished before"), std::string::npos) << sweep.output;
}

// Ctrl+C in a sweep over a pool stops both workers at once and prints the points finished before.
TEST(CliSweep, CtrlCInASweepOverAPoolStopsEveryWorker) {
    const Interrupted sweep = interrupt_sweep({"--pool", "local:2"}, std::chrono::milliseconds(2000));  // both workers hold a point
    EXPECT_LT(sweep.exit_s, 3.0);
    ASSERT_TRUE(WIFEXITED(sweep.status));
    EXPECT_EQ(WEXITSTATUS(sweep.status), 130);
    EXPECT_NE(sweep.output.find("cancelled: the points above are those finished before"), std::string::npos) << sweep.output;
    EXPECT_NE(sweep.output.find("  worker 2 (local): "), std::string::npos) << sweep.output;
}

// A sweep over a pool: a member that never comes up is a line and the sweep runs on the others; a group
// the pool does not have is a usage error naming how many it has.
TEST(CliSweep, APoolMemberThatFailsIsSaidAndAGroupItLacksIsAUsageError) {
    kplay::test::TempDir cache;
    const std::string failing = "cmd:" + std::string(KPLAY_TEST_FAKE_WORKER) + " --mode exit-at-start --always";
    const Result ran = run_cli("sweep " + kernel("grayscale/01_seed_1d.cu") + " --param block_x=64,128 --size 64x64 --pool local:1 --pool '" +
                                   failing + "'",
                               cache);
    EXPECT_EQ(ran.code, 0) << ran.output;
    EXPECT_NE(ran.output.find("kplay-cli: pool member cmd:"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("kplay-cli: 1 worker sweep"), std::string::npos) << ran.output;
    EXPECT_NE(ran.output.find("best: block_x="), std::string::npos) << ran.output;
    const Result group = run_cli("sweep " + kernel("grayscale/01_seed_1d.cu") + " --param block_x=64 --pool local:1 --group 2", cache);
    EXPECT_EQ(group.code, 2) << group.output;
    EXPECT_NE(group.output.find("--group 2: the pool has 1 group (kplay-cli devices --pool numbers them)"), std::string::npos) << group.output;
}

// kplay-cli with a worker elsewhere: the same run through --remote-command, and an unreachable ssh host
// or a bad combination as a clear message with its exit code.
TEST(CliRemote, RunsThroughARemoteCommandAndNamesWhatFails) {
    kplay::test::TempDir cache;
    const std::string worker = "'" + kplay::test::worker_path().string() + " --stdio'";
    const Result ran = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --size 64x48 --remote-command " + worker + " --json", cache);
    EXPECT_EQ(ran.code, 0) << ran.output;
    const auto json_start = ran.output.find('{');
    ASSERT_NE(json_start, std::string::npos) << ran.output;
    const nlohmann::json report = nlohmann::json::parse(ran.output.substr(json_start));
    EXPECT_TRUE(report["check"].value("passed", false)) << ran.output;
    EXPECT_EQ(report.value("file", ""), kernel("grayscale/01_seed_1d.cu"));

    const Result devices = run_cli("devices --remote-command " + worker, cache);
    EXPECT_EQ(devices.code, 4) << devices.output;  // as locally: no CUDA device there, the emulated one listed
    EXPECT_NE(devices.output.find("[cpu] Emulated CPU"), std::string::npos) << devices.output;

    // A host that does not exist, with ssh's own message and the command to try.
    const Result unreachable = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --remote no-such-host.invalid", cache);
    EXPECT_NE(unreachable.code, 0);
    EXPECT_NE(unreachable.output.find("no-such-host.invalid"), std::string::npos) << unreachable.output;
    EXPECT_NE(unreachable.output.find("Try it in a terminal: ssh no-such-host.invalid"), std::string::npos) << unreachable.output;

    const Result both = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --remote a --remote-command b", cache);
    EXPECT_EQ(both.code, 2) << both.output;
    const Result in_process = run_cli("run " + kernel("grayscale/01_seed_1d.cu") + " --in-process --remote-command " + worker, cache);
    EXPECT_EQ(in_process.code, 2) << in_process.output;
    EXPECT_NE(in_process.output.find("cannot be combined with --remote"), std::string::npos) << in_process.output;
}
