// The asynchronous, supervised client of kplay-worker: the only way programs reach the engine.
//
// submit_*() queues a request and returns at once; poll() never blocks and hands back finished results.
// The client starts the worker, restarts it with backoff after a crash, and gives up with a message
// after a few quick failures instead of spinning. A watchdog kills a request that runs past its
// timeout (SIGKILL, then waitpid, which is when the GPU memory is freed) and says so in the result.
// After a sticky CUDA fault the worker is replaced, since its context cannot be used again.
//
// With WorkerOptions::remote the "worker" is a command (ssh host kplay-worker --stdio) whose stdin and
// stdout carry the protocol as stream frames (blobs inline). The host's supervisor keeps its own
// worker alive across faults and hangs and answers them as failures; this side then only watches the
// link: a connection that ends is reported (the next request reconnects), and a link that stays silent
// past the host's limit plus a margin for the round trip is closed.
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
#include "client/stream_frames.hpp"
#include "client/protocol.hpp"
#include "client/run_report.hpp"
#include "client/run_request.hpp"
#include "remote/remote_bundle.hpp"
#include "remote/remote_target.hpp"

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
};

// disconnected: a remote worker's connection ended (the next request reconnects).
enum class WorkerFailure { none, timeout, crashed, protocol, gave_up, start_failed, disconnected };
const char* worker_failure_name(WorkerFailure failure);
std::optional<WorkerFailure> parse_worker_failure(std::string_view text);

struct WorkerStats {
    int64_t rss_bytes = 0;
    int64_t device_used_bytes = -1;     // -1 when no device context exists
    int64_t supervisor_rss_bytes = -1;  // a remote worker's supervisor on the host; -1 for a local worker
};

// How the link to a remote worker is doing, for the window's status bar.
struct RemoteStatus {
    std::string label;            // the host
    bool connected = false;       // a connection has said hello and is open
    int connections = 0;          // made so far
    double connect_ms = -1;       // the last connection: starting the command until the worker's hello
    double link_ms = -1;          // the last answer: its time minus the host's, the round trip and transfer
    uint64_t bytes_sent = 0, bytes_received = 0;  // on the wire, after compression
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
    double link_ms = -1;          // a remote worker: elapsed_ms less the host's own time
    pid_t worker_pid = 0;
    // A progressive run's first answer (RunReport::partial): the request stays in flight, and its final
    // answer comes from a later poll().
    bool partial = false;
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
    // The descriptor answers arrive on (-1 when no worker runs), for a caller's poll(2).
    int wait_fd() const { return socket_ ? socket_.get() : -1; }
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
    void set_timeouts(double run_s, double compile_s, double cpu_s);
    bool remote() const { return options_.remote.has_value(); }
    const RemoteStatus& remote_status() const { return remote_status_; }

private:
    struct Pending {
        uint64_t id = 0;
        MessageKind kind = MessageKind::ping;
        nlohmann::json message;
        std::string description;  // "running kernels_src/x.cu"
        std::optional<ImageUpload> image;  // a remote run's input image, sent unless the host has it
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
    void send_in_flight();
    std::optional<Frame> next_frame();
    FrameReader::Status read_more();
    void kill_worker();
    void drain_stderr();
    double link_margin_s() const;
    WorkerResult fail_connection(bool before_hello);

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
    // A remote worker's connection.
    StreamFrameReader stream_reader_;
    UniqueFd stderr_;          // what ssh and the remote side print
    std::string stderr_tail_;  // its last few KiB, for a failed connection's message
    bool awaiting_hello_ = false;
    std::optional<int> exited_status_;  // the command's wait status, when it was reaped before the socket closed
    Clock::time_point started_at_{}, hello_at_{};
    std::vector<std::string> sent_images_;  // content hashes the host has in this connection
    RemoteStatus remote_status_;
    StreamTraffic sent_traffic_;
};

// kplay-worker's location: $KPLAY_WORKER, else next to the running program.
std::filesystem::path default_worker_path();

}  // namespace kplay
