// Test helpers: temp folders, a 16-bit PNG encoder (zlib + CRC), device detection.
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "base/error.hpp"
#include "cuda/device_query.hpp"
#include "run/run_pipeline.hpp"

namespace kplay::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() / ("kplay-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code error;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, error);
    fs::remove_all(path_, error);
}

fs::path TempDir::write(const std::string& name, const std::string& content) const {
    const fs::path file = path_ / name;
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

std::string recorded_output(const std::string& name) {
    const fs::path path = fs::path(KPLAY_TEST_DATA_DIR) / "inspect" / name;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ADD_FAILURE() << "missing test data " << path;
        return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::pair<int, std::string> run_shell(const std::string& command) {
    std::string output;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return {-1, "cannot run " + command};
    char buffer[4096];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

std::string input_error_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no error)";
}

std::string why_no_gpu() {
    const DeviceQuery query = query_devices();
    return query.problem();
}

namespace {
void put_be32(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}
void put_chunk(std::string& out, const char* type, const std::string& data) {
    put_be32(out, static_cast<uint32_t>(data.size()));
    const std::string body = std::string(type, 4) + data;
    out += body;
    put_be32(out, static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()))));
}
}  // namespace

std::string encode_png16_rgb(int width, int height, const unsigned short* rgb) {
    std::string png("\x89PNG\r\n\x1a\n", 8);
    std::string header;
    put_be32(header, width);
    put_be32(header, height);
    header += std::string("\x10\x02\x00\x00\x00", 5);  // 16-bit, colour type 2 (RGB)
    put_chunk(png, "IHDR", header);
    std::string raw;
    for (int y = 0; y < height; ++y) {
        raw += '\0';  // filter: none
        for (int x = 0; x < width * 3; ++x) {
            const unsigned short v = rgb[y * width * 3 + x];
            raw += static_cast<char>(v >> 8);
            raw += static_cast<char>(v & 0xFF);
        }
    }
    uLongf size = compressBound(raw.size());
    std::string compressed(size, '\0');
    compress(reinterpret_cast<Bytef*>(compressed.data()), &size, reinterpret_cast<const Bytef*>(raw.data()), raw.size());
    compressed.resize(size);
    put_chunk(png, "IDAT", compressed);
    put_chunk(png, "IEND", "");
    return png;
}

fs::path data_dir() { return KPLAY_TEST_DATA_DIR; }

bool loads_through_tma(const fs::path& file) { return read_file(file).find("kplay-tma:") != std::string::npos; }

std::string irregular_matmul_size(const fs::path& file) { return loads_through_tma(file) ? "999x996x1004" : "1000x999x1001"; }

fs::path kernels_dir() {
    // A build copied to another machine finds the tree through the same variable the programs use.
    if (const char* env = std::getenv("KPLAY_KERNELS_DIR"); env && *env) return env;
    return KPLAY_TEST_KERNELS_DIR;
}

std::string vector_add_task(const std::string& sizes, const std::string& extra_lines) {
    return "// kplay-sizes: n " + sizes + "\n" + R"(// kplay-buffer: a f32[n] in init=uniform(-1,1)
// kplay-buffer: b f32[n] in init=uniform(-1,1)
// kplay-buffer: c f32[n] out check=exact
)" + extra_lines +
           R"(__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
#ifdef KPLAY_REFERENCE
void kplay_reference(const float* a, const float* b, float* c, int n) {
    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
#endif
)";
}

fs::path images_dir() {
    if (const char* env = std::getenv("KPLAY_TEST_IMAGES"); env && *env) return env;
    return kernels_dir() / "images";
}

FaultExpectation read_fault_expectation(const fs::path& file, const std::string& marker) {
    FaultExpectation expectation;
    std::istringstream lines(read_file(file));
    std::string line;
    while (std::getline(lines, line)) {
        const auto at = line.find(marker);
        if (at == std::string::npos) continue;
        expectation.found = true;
        std::string rest = line.substr(at + marker.size());
        if (rest.find_first_not_of(' ') != std::string::npos && rest.substr(rest.find_first_not_of(' '), 4) == "skip") {
            expectation.skip = true;
            break;
        }
        const auto text = rest.find("text=");
        if (text != std::string::npos) {
            expectation.text = rest.substr(text + 5);
            rest = rest.substr(0, text);
        }
        std::istringstream words(rest);
        std::string word;
        while (words >> word) {
            if (word.rfind("stage=", 0) == 0) expectation.stage = word.substr(6);
            if (word.rfind("code=", 0) == 0) expectation.code = word.substr(5);
        }
        break;
    }
    return expectation;
}

RunRequest quick_seed_run(const std::string& size) {
    RunRequest request;
    request.kernel_path = kernels_dir() / "grayscale/01_seed_1d.cu";
    request.inputs.size = size;
    request.emulate = true;
    request.warmup = 0;
    request.repeat = 1;
    request.check_test_sizes = false;
    return request;
}

void expect_a_run_cut_short(WorkerClient& client) {
    RunRequest run = quick_seed_run();
    run.check_test_sizes = true;
    run.progressive = true;
    run.keep_outputs = true;
    const auto answers = [&](uint64_t id) {
        std::vector<WorkerResult> got{client.wait(id)};
        if (got.back().ok() && got.back().partial) got.push_back(client.wait(id));
        return got;
    };
    const std::vector<WorkerResult> whole = answers(client.submit_run(run));
    ASSERT_EQ(whole.size(), 2u) << "the checked result, then the final answer: " << whole.back().failure_message;
    ASSERT_EQ(whole.back().run.stage, Stage::done) << whole.back().run.error;
    EXPECT_FALSE(whole.back().run.check.sizes.empty()) << "uncut, the further sizes are checked";
    EXPECT_TRUE(whole.back().run.warnings.empty());

    const uint64_t id = client.submit_run(run);
    client.cut_short(id);  // a newer run overtook it as soon as it went
    const std::vector<WorkerResult> cut = answers(id);
    ASSERT_EQ(cut.size(), 2u) << cut.back().failure_message;
    EXPECT_TRUE(cut.front().partial);
    EXPECT_TRUE(cut.front().run.check.passed);
    const RunReport& final_answer = cut.back().run;
    ASSERT_EQ(final_answer.stage, Stage::done) << final_answer.error;
    EXPECT_TRUE(final_answer.check.sizes.empty()) << "no further size ran";
    EXPECT_EQ(final_answer.warnings, std::vector<std::string>{kCutShortWarning});
    EXPECT_TRUE(final_answer.check.passed) << "the main size's verdict stands";

    // The worker goes on: the next run is whole again.
    const std::vector<WorkerResult> next = answers(client.submit_run(run));
    ASSERT_EQ(next.back().run.stage, Stage::done) << next.back().run.error;
    EXPECT_FALSE(next.back().run.check.sizes.empty());
}

fs::path worker_path() {
    if (const char* env = std::getenv("KPLAY_WORKER"); env && *env) return env;
    return KPLAY_TEST_WORKER;
}

fs::path cli_path() {
    if (const char* env = std::getenv("KPLAY_TEST_CLI"); env && *env) return env;
    return KPLAY_TEST_CLI;
}

WorkerCopy::WorkerCopy() : path(dir.path() / "kplay-worker") { fs::copy_file(worker_path(), path); }

std::vector<pid_t> worker_processes(const fs::path& exe) {
    std::vector<pid_t> found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code error;
        const fs::path target = fs::read_symlink(entry.path() / "exe", error);
        std::ifstream cmdline(entry.path() / "cmdline");
        const std::string arguments((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
        if (!error && target == exe && arguments.find("--compile-server") == std::string::npos) found.push_back(std::stoi(name));
    }
    return found;
}

bool eventually(const std::function<bool()>& condition, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (condition()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return condition();
}

std::vector<fs::path> kernel_files(const std::string& folder) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(kernels_dir() / folder))
        if (entry.path().extension() == ".cu") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<fs::path> task_library_files() {
    std::vector<fs::path> files;
    for (const auto& folder : fs::directory_iterator(kernels_dir())) {
        const std::string name = folder.path().filename().string();
        if (!folder.is_directory() || name == "include" || name == "faults" || name == "races" || name == "grayscale" || name == "matmul") continue;
        for (auto& file : kernel_files(name)) files.push_back(std::move(file));
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string test_name_of(const fs::path& file) {
    std::string name = file.parent_path().filename().string() + "_" + file.stem().string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}


CliRun run_cli(const std::string& arguments, const std::filesystem::path& cache, const CliPlace& place) {
    const std::string hide_driver = place.gpu ? "" : "KPLAY_CUDA_DRIVER=/nonexistent/libcuda.so.1 ";
    const auto [code, output] = run_shell("cd " + place.from + " && env " + place.environment + " " + hide_driver + "XDG_CACHE_HOME=" +
                                          cache.string() + " " + cli_path().string() + " " + arguments);
    return {code, output};
}

std::vector<ReadmeExample> readme_examples() {
    const std::string readme = read_file(KPLAY_TEST_README);
    static const std::regex block("```cuda\n// file: ([A-Za-z0-9_.]+)\n([\\s\\S]*?)```");
    std::vector<ReadmeExample> examples;
    for (auto it = std::sregex_iterator(readme.begin(), readme.end(), block); it != std::sregex_iterator(); ++it)
        examples.push_back({(*it)[1], "// file: " + (*it)[1].str() + "\n" + (*it)[2].str()});
    return examples;
}

}  // namespace kplay::test

namespace kplay::test {

std::string readme_example(const std::string& name) {
    const std::string readme = read_file(KPLAY_TEST_README);
    const std::string opening = "```cuda\n// file: " + name + "\n";
    const size_t start = readme.find(opening);
    if (start == std::string::npos) return "";
    const size_t end = readme.find("```", start + opening.size());
    return readme.substr(start + 8, end - start - 8);
}

Engine& scratch_engine() {
    static TempDir cache;
    static Engine engine([] {
        EngineConfig config = default_engine_config();
        config.cache_dir = cache.path();
        return config;
    }());
    return engine;
}

}  // namespace kplay::test
