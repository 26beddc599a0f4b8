// compile_latency: first and repeat compiles of kernel files through kplay-worker and its compile
// server, as the window's edit loop meets them. For each file: one compile of the file as it is (the
// server's first sight of its headers), then N edits (a comment appended: a new text, so a cache miss
// and a whole NVRTC compile, the leading includes unchanged); with --replace-worker the worker is killed
// before the edits, as a fault replaces it. Prints one line per compile: wall ms (request to answer),
// NVRTC's ms, and what NVRTC's precompiled headers did; then the median of the edits.
//
//   compile_latency --worker PATH [--edits N] [--arch sm_90] [--replace-worker] [--no-pch] FILE...
//   compile_latency --in-process [--edits N] [--arch sm_90] FILE...
// Runs with its own XDG_RUNTIME_DIR and XDG_CACHE_HOME (a fresh server and an empty disk cache).
// --no-pch: the compile server without NVRTC's precompiled headers (KPLAY_NVRTC_PCH=0).
// --in-process: the engine in this process, NVRTC without precompiled headers (as kplay-cli
// --in-process, and as every worker compiled before the compile server), for comparison.
// --on-thread: the same, each compile on a thread of its own (the compile server compiles on one).
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <sstream>
#include <string>
#include <vector>

#include "client/worker_client.hpp"
#include "run/engine.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

const char* pch_word(PchUse use) { return use == PchUse::used ? "used PCH" : use == PchUse::created ? "created PCH" : "-"; }

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

int main(int argc, char** argv) {
    fs::path worker;
    int edits = 4;
    std::string arch = "sm_90";
    bool replace_worker = false, in_process = false, no_pch = false, on_thread = false;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--worker" && i + 1 < argc) worker = argv[++i];
        else if (arg == "--edits" && i + 1 < argc) edits = std::atoi(argv[++i]);
        else if (arg == "--arch" && i + 1 < argc) arch = argv[++i];
        else if (arg == "--replace-worker") replace_worker = true;
        else if (arg == "--in-process") in_process = true;
        else if (arg == "--on-thread") on_thread = in_process = true;  // in-process, NVRTC on a thread as the compile server runs it
        else if (arg == "--no-pch") no_pch = true;
        else files.emplace_back(arg);
    }
    if ((worker.empty() && !in_process) || files.empty()) {
        std::fprintf(stderr, "usage: compile_latency --worker PATH | --in-process | --on-thread [--edits N] [--arch sm_90] [--replace-worker] FILE...\n");
        return 2;
    }
    char scratch[] = "/tmp/kplay-compile-latency-XXXXXX";
    if (!mkdtemp(scratch)) return 2;
    WorkerOptions options;
    options.worker_path = worker;
    options.compile_timeout_s = 600;
    options.extra_environment = {std::string("XDG_RUNTIME_DIR=") + scratch, std::string("XDG_CACHE_HOME=") + scratch + "/cache"};
    if (no_pch) options.extra_environment.push_back("KPLAY_NVRTC_PCH=0");
    std::unique_ptr<WorkerClient> client;
    std::unique_ptr<Engine> engine;
    if (in_process) {
        EngineConfig config = default_engine_config();
        config.cache_dir = std::string(scratch) + "/cache";
        engine = std::make_unique<Engine>(config);
    } else {
        client = std::make_unique<WorkerClient>(options);
    }
    // One compile, through the worker or the engine here, timed from request to answer.
    const auto compile = [&](const CompileFileRequest& request) {
        if (client) return client->wait(client->submit_compile(request));
        WorkerResult result;
        const auto start = std::chrono::steady_clock::now();
        if (on_thread) std::thread([&] { result.compile = engine->compile_file(request); }).join();
        else result.compile = engine->compile_file(request);
        result.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return result;
    };
    for (const fs::path& file : files) {
        const std::string source = read_text(file);
        std::vector<double> repeat_wall, repeat_nvrtc;
        for (int n = 0; n <= edits; ++n) {
            if (n == 1 && replace_worker && client) {
                kill(client->worker_pid(), SIGKILL);
                client->wait(client->submit_ping());  // the failed request; the next one starts a new worker
            }
            CompileFileRequest request;
            request.path = file;
            request.source = n == 0 ? source : source + "\n// edit " + std::to_string(n) + "\n";
            request.arch = arch;
            const WorkerResult result = compile(request);
            const CompileResult& compiled = result.compile.compile;
            if (!result.ok() || !compiled.ok) {
                std::printf("%s %d FAILED %s %s\n", file.filename().c_str(), n, result.failure_message.c_str(), compiled.log.c_str());
                return 1;
            }
            std::printf("%s %s %.0f ms wall %.0f ms nvrtc %s%s\n", file.filename().c_str(), n == 0 ? "first" : ("edit " + std::to_string(n)).c_str(),
                        result.elapsed_ms, compiled.compile_ms, pch_word(compiled.pch), compiled.cache_hit ? " (cache hit)" : "");
            std::fflush(stdout);
            if (n > 0) {
                repeat_wall.push_back(result.elapsed_ms);
                repeat_nvrtc.push_back(compiled.compile_ms);
            }
        }
        std::sort(repeat_wall.begin(), repeat_wall.end());
        std::sort(repeat_nvrtc.begin(), repeat_nvrtc.end());
        if (!repeat_wall.empty())
            std::printf("%s median of %d edits: %.0f ms wall %.0f ms nvrtc\n", file.filename().c_str(), edits, repeat_wall[repeat_wall.size() / 2],
                        repeat_nvrtc[repeat_nvrtc.size() / 2]);
    }
    return 0;
}
