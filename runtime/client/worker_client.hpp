// The asynchronous, supervised client of kplay-worker: the only way programs reach the engine.
//
// submit_*() queues a request and returns at once; poll() never blocks and hands back finished results.
// The client starts the worker, restarts it with backoff after a crash, and gives up with a message
// after a few quick failures instead of spinning. A watchdog kills a request that runs past its
// timeout (SIGKILL, then waitpid, which is when the GPU memory is freed) and says so in the result.
// After a sticky CUDA fault the worker is replaced, since its context cannot be used again.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/frames.hpp"
#include "client/protocol.hpp"
#include "client/run_report.hpp"
#include "client/run_request.hpp"

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
};

enum class WorkerFailure { none, timeout, crashed, protocol, gave_up, start_failed };

struct WorkerStats {
    int64_t rss_bytes = 0;
    int64_t device_used_bytes = -1;  // -1 when no device context exists
};

struct WorkerResult {
    uint64_t id = 0;
    MessageKind kind = MessageKind::ping;
    WorkerFailure failure = WorkerFailure::none;
    std::string failure_message;  // for the user, when failure != none
    RunReport run;                // kind == run (a failure is also written into run.error)
    CompileFileResult compile;    // kind == compile
    DeviceQuery devices;          // kind == devices
    WorkerStats stats;            // kind == stats
    double elapsed_ms = 0;        // from sending to the answer (or the failure)
    pid_t worker_pid = 0;
    bool ok() const { return failure == WorkerFailure::none; }
};

class WorkerClient {
public:
    explicit WorkerClient(WorkerOptions options = {});
    ~WorkerClient();
    WorkerClient(const WorkerClient&) = delete;
    WorkerClient& operator=(const WorkerClient&) = delete;

    uint64_t submit_run(const RunRequest& request);
    uint64_t submit_compile(const CompileFileRequest& request);
    uint64_t submit_devices();
    uint64_t submit_stats();
    uint64_t submit_ping();

    // Advances the state machine without blocking; returns a finished result if there is one.
    std::optional<WorkerResult> poll();
    // Blocks (sleeping in poll(2), not spinning) until request `id` is finished.
    WorkerResult wait(uint64_t id);

    bool idle() const { return queue_.empty() && !in_flight_; }
    int restarts() const { return starts_ > 0 ? starts_ - 1 : 0; }
    pid_t worker_pid() const { return pid_; }
    bool gave_up() const { return gave_up_; }
    const std::string& gave_up_message() const { return gave_up_message_; }
    // The phase the request in flight is in, and how far it has got (-1: unknown), from the worker's
    // progress messages.
    Phase phase() const { return phase_; }
    double phase_fraction() const { return phase_fraction_; }
    // Clears a give-up after a crash loop (e.g. the user rebuilt or fixed the cause).
    void reset_crash_loop();
    const WorkerOptions& options() const { return options_; }
    void set_run_timeout(double seconds) { options_.run_timeout_s = seconds; }

private:
    struct Pending {
        uint64_t id = 0;
        MessageKind kind = MessageKind::ping;
        nlohmann::json message;
        std::string description;  // "running kernels_src/x.cu"
    };
    using Clock = std::chrono::steady_clock;

    std::optional<WorkerResult> advance();
    uint64_t enqueue(MessageKind kind, nlohmann::json body, std::string description);
    bool start_worker(std::string& why);
    void stop_worker(bool kill_now);
    std::string reap_description();  // waits for the worker and says how it ended
    WorkerResult fail_in_flight(WorkerFailure failure, const std::string& message);
    void note_failure();
    double limit_for(Phase phase) const;
    WorkerResult decode(const Pending& pending, Frame frame);

    WorkerOptions options_;
    std::deque<Pending> queue_;
    std::optional<Pending> in_flight_;
    Clock::time_point sent_at_{};
    Clock::time_point deadline_{};
    Phase phase_ = Phase::gpu;  // what the in-flight run is doing, by the worker's last progress message
    double phase_fraction_ = -1;
    Clock::time_point next_start_{};
    std::vector<Clock::time_point> recent_failures_;
    uint64_t next_id_ = 1;
    pid_t pid_ = 0;
    UniqueFd socket_;
    FrameReader reader_;
    int starts_ = 0;
    bool gave_up_ = false;
    std::string gave_up_message_;
    std::deque<WorkerResult> finished_;
};

// kplay-worker's location: $KPLAY_WORKER, else next to the running program.
std::filesystem::path default_worker_path();

}  // namespace kplay
