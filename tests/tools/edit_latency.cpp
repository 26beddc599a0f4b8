// edit_latency: the edit->result series without a window. It opens a copy of a kernel file in a
// KernelSession (the window's controller), saves new content N times the way editors do (truncate and
// write, or write a temp file and rename over it), and prints each save's time from the file change to
// the result being ready, with the compile and worker times, then the medians. With --remote-command
// the kernels run on a worker reached by that command (a delaying proxy makes a distant link).
//
//   edit_latency [--remote-command CMD] [--saves N] [--emulated] FILE
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "client/remote_target.hpp"
#include "session/kernel_session.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {

double median(std::vector<double> values) {
    if (values.empty()) return -1;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Polls the session as a window's frames would (every millisecond) until `done` or 60 s pass.
bool pump(KernelSession& session, const std::function<bool()>& done) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < until) {
        if (session.update()) session.frame_presented();
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::string command, file;
    int saves = 32;
    bool emulated = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--remote-command" && i + 1 < argc) command = argv[++i];
        else if (arg == "--saves" && i + 1 < argc) saves = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--emulated") emulated = true;
        else if (!arg.empty() && arg[0] != '-') file = arg;
        else {
            std::fprintf(stderr, "usage: edit_latency [--remote-command CMD] [--saves N] [--emulated] FILE\n");
            return 2;
        }
    }
    if (file.empty()) {
        std::fprintf(stderr, "usage: edit_latency [--remote-command CMD] [--saves N] [--emulated] FILE\n");
        return 2;
    }
    char pattern[] = "/tmp/kplay-edit-latency-XXXXXX";
    if (!mkdtemp(pattern)) return 2;
    const fs::path dir = pattern, copy = dir / fs::path(file).filename();
    std::string original;
    {
        std::ifstream in(file);
        original.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::ofstream(copy) << original;

    WorkerOptions options;
    if (!command.empty()) options.remote = command_target(command);
    KernelSession session(options);
    if (emulated) session.inputs.device = kEmulatedDevice;
    session.open(copy);
    if (!pump(session, [&] { return session.results_received() >= 1 && !session.busy(); })) {
        std::fprintf(stderr, "edit_latency: no first result\n");
        return 1;
    }
    std::printf("first result: %.1f ms (opening the file, the worker's start included)\n", session.opened_to_result_ms().value_or(-1));
    std::vector<double> latency, compile, worker, link;
    for (int i = 0; i < saves; ++i) {
        // A user saves seconds apart: by then the result's follow-up requests (the Inside tab's compile)
        // are answered, so a save never queues behind them here either.
        pump(session, [&] { return session.client().idle(); });
        // New content each time (a comment that changes), so every save compiles afresh.
        const std::string text = original + "\n// edit " + std::to_string(i) + " " + std::to_string(getpid()) + "\n";
        if (i % 2 == 0) {
            std::ofstream(copy, std::ios::trunc) << text;  // VS Code style: truncate and write
        } else {
            const fs::path temp = dir / ".swp";
            std::ofstream(temp) << text;
            fs::rename(temp, copy);  // vim style: a new file renamed over the old
        }
        const size_t before = session.latencies_ms().size();
        if (!pump(session, [&] { return session.latencies_ms().size() > before && !session.busy(); })) {
            std::fprintf(stderr, "edit_latency: save %d got no result\n", i);
            return 1;
        }
        const RunReport& report = *session.last();
        latency.push_back(session.latencies_ms().back());
        compile.push_back(report.compile.cache_hit ? report.compile.lookup_ms : report.compile.compile_ms);
        worker.push_back(session.history().empty() ? -1 : session.history().back().worker_ms);
        link.push_back(session.client().remote() ? session.client().remote_status().link_ms : 0);
        std::printf("save %2d: %7.1f ms  compile %6.1f ms  worker %6.1f ms  link %6.1f ms  %s\n", i, latency.back(), compile.back(),
                    worker.back(), link.back(), report.ok() && report.check.passed ? "PASS" : report.error.c_str());
        // Where the worker's time went: to the checked result, then the timing and the further sizes.
        const RunTimes& t = report.times;
        std::printf("         worker: compiled at %.1f ms, loaded %.1f, launched %.1f, checked %.1f, sent %.1f (module %.2f, inputs %.1f, "
                    "reference %.1f, H2D %.2f, D2H %.2f), timed repeats %.1f, further sizes %.1f, whole run %.1f\n",
                    t.compiled_at_ms, t.loaded_at_ms, t.launched_at_ms, t.checked_at_ms, t.partial_at_ms, report.module_load_ms, report.inputs_ms, report.check.reference_ms, report.h2d_ms, report.d2h_ms,
                    t.timed_ms, t.further_sizes_ms, t.run_ms);
    }
    std::printf("p50 edit->result %.1f ms, compile %.1f ms, worker %.1f ms, link %.1f ms over %d saves (%s)\n", median(latency), median(compile),
                median(worker), median(link), saves, command.empty() ? "local worker" : command.c_str());
    fs::remove_all(dir);
    return 0;
}
