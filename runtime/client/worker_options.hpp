// How a WorkerClient starts and watches its worker: the program (or the remote command), the
// watchdog's limit per phase, and when repeated failures make it give up.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "client/remote_target.hpp"

namespace kplay {

struct WorkerOptions {
    std::filesystem::path worker_path;     // empty: kplay-worker next to this program (or $KPLAY_WORKER)
    std::vector<std::string> worker_args;  // extra arguments (tests start fake workers this way)
    std::vector<std::string> extra_environment;  // NAME=VALUE added for the worker
    bool thorough = false;  // a worker for thorough mode: it restarts itself with the sanitizer runtimes preloaded
    double run_timeout_s = 5;         // GPU work of one run (the kernel launches)
    double compile_timeout_s = 60;    // NVRTC
    double cpu_timeout_s = 600;       // inputs, the CPU reference and the check (matmul 8192^3 in fp64 takes a while)
    int max_quick_failures = 3;            // failures within the window before the client gives up
    double quick_failure_window_s = 10;
    std::optional<RemoteTarget> remote;  // a worker on another machine, reached by this command
    // Answers are handed on as they came (WorkerResult::answer) instead of decoded: for a relay (the
    // host's supervisor) that forwards them.
    bool relay = false;
};

// kplay-worker's location: $KPLAY_WORKER, else next to the running program.
std::filesystem::path default_worker_path();

}  // namespace kplay
