// Helpers shared by the test suites: temp folders, file writing, device presence.
#pragma once

#include "client/worker_client.hpp"
#include "run/engine.hpp"

#include <sys/types.h>

#include <utility>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace kplay::test {

// A fresh folder under the system temp dir, removed when the object goes away.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, const std::string& content) const;

private:
    std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& path);

// A tool's output recorded on the H200, from tests/data/inspect/ (a test failure when it is missing).
std::string recorded_output(const std::string& name);

// The message of the InputError `call` throws, or "(no error)" when it throws none: tests compare
// exact messages with it.
std::string input_error_of(const std::function<void()>& call);

// kplay-cli run with `arguments` (shell words): its exit code and its output (stdout and stderr).
struct CliRun {
    int code = -1;
    std::string output;
};
// Where it runs: `from` is the folder (README's command lines name files from the checkout's root),
// `environment` more NAME=VALUE words for env, and `gpu` lets it find the CUDA driver (otherwise the
// driver is hidden, so a run goes to the emulated device, as in CI).
struct CliPlace {
    std::string from = ".";
    std::string environment;
    bool gpu = false;
};
// `cache` becomes its XDG_CACHE_HOME.
CliRun run_cli(const std::string& arguments, const std::filesystem::path& cache, const CliPlace& place = {});

// README's examples: every ```cuda block whose first line is `// file: NAME`, with that line.
struct ReadmeExample {
    std::string name, source;
};
std::vector<ReadmeExample> readme_examples();

// Runs `command` with sh, stderr with stdout: its exit status (-1 when it did not exit) and its output.
std::pair<int, std::string> run_shell(const std::string& command);

// Empty when a CUDA device can run kernels; otherwise the reason, for GTEST_SKIP.
std::string why_no_gpu();

// A minimal 16-bit RGB PNG encoder (stb_image_write only writes 8-bit), for the 16-bit decode test.
std::string encode_png16_rgb(int width, int height, const unsigned short* rgb);

std::filesystem::path kernels_dir();
std::filesystem::path data_dir();  // tests/data
// A matmul ladder file's irregular test size: 1000x999x1001, or for the rungs that load through the
// TMA (whose row pitches are whole 16-byte pieces: requires=K%4==0&&N%4==0) 999x996x1004.
std::string irregular_matmul_size(const std::filesystem::path& file);
bool loads_through_tma(const std::filesystem::path& file);

// A declared vector add (c = a + b, checked exactly against a host reference) with these
// `kplay-sizes` values and any further declaration lines, for the end-to-end and window tests.
std::string vector_add_task(const std::string& sizes, const std::string& extra_lines = "");

// The repository's photos (kernels_src/images: grace_hopper.jpg and its progressive copy), or KPLAY_TEST_IMAGES.
std::filesystem::path images_dir();

// A fault file's `// expect: stage=S [code=C] [text=T...]` line: what kplay must report for it.
struct FaultExpectation {
    std::string stage;  // where the run must stop: compile, spec, launch, run, worker
    std::string code;   // CUDA_ERROR_... or KPLAY_TIMEOUT, when a code is expected
    std::string text;   // a substring of the message, when given
    bool skip = false;
    bool found = false;
};
// `marker` "// expect-emulated:" reads the emulated device's line; its absence means the same as on a GPU,
// and "skip" (FaultExpectation::skip) means the fault is a GPU limit with no CPU counterpart.
FaultExpectation read_fault_expectation(const std::filesystem::path& file, const std::string& marker = "// expect:");

// kplay-worker of this build, or $KPLAY_WORKER for a build copied elsewhere.
std::filesystem::path worker_path();
// The seed kernel on the emulated device at `size`, one timed launch, no test sizes: a quick run for
// the tests of the worker's plumbing.
RunRequest quick_seed_run(const std::string& size = "96x64");
// Runs the seed progressively twice through `client`: once whole, once cut short (WorkerClient::cut_short)
// right after it was sent; checks the first checks its further sizes and the second answers its checked
// result, then a final answer that says it was cut short and ran none.
void expect_a_run_cut_short(WorkerClient& client);
// kplay-cli of this build, or $KPLAY_TEST_CLI for a build copied elsewhere.
std::filesystem::path cli_path();

// A copy of kplay-worker of the test's own, so its processes can be told from any other's by their
// executable's path.
struct WorkerCopy {
    TempDir dir;
    std::filesystem::path path;
    WorkerCopy();
};

// The processes running `exe` (a supervisor and its workers), by /proc/PID/exe; not the compile server,
// which runs the same program, is shared by every worker and ends when idle.
std::vector<pid_t> worker_processes(const std::filesystem::path& exe);

// Whether `condition` holds within `seconds`, asked every 20 ms.
bool eventually(const std::function<bool()>& condition, double seconds = 5);

// Files under kernels_src/<folder>, sorted.
std::vector<std::filesystem::path> kernel_files(const std::string& folder);

// Every step of the task library's ladders: the .cu files of each kernels_src folder that declares its
// task (all but the built-in grayscale and matmul ladders, the fault corpus and include/), sorted.
std::vector<std::filesystem::path> task_library_files();

// README's ```cuda example that starts `// file: NAME`, as printed (that line included); empty when
// there is none.
std::string readme_example(const std::string& name);

// A gtest-safe name for a kernel file: "scan/03_hierarchical.cu" -> "scan_03_hierarchical".
std::string test_name_of(const std::filesystem::path& file);

// An in-process engine whose caches live in a scratch folder of the test binary (one per binary).
kplay::Engine& scratch_engine();

}  // namespace kplay::test
