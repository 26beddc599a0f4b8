// The asynchronous, supervised client of kplay-worker: the only way programs reach the engine.
//
// submit_*() queues a request (sending it when the worker is free) and returns at once; poll() never
// blocks and hands back finished results.
// The client starts the worker, restarts it with backoff after a crash, and gives up with a message
// after a few quick failures instead of spinning. A watchdog kills a request that runs past its
// timeout (SIGKILL, then waitpid, which is when the GPU memory is freed) and says so in the result.
// After a sticky CUDA fault the worker is replaced, since its context cannot be used again.
//
// The worker is reached over a link (worker_link.hpp): a local kplay-worker (local_link.hpp), or with
// WorkerOptions::remote a command such as `ssh host kplay-worker --stdio` (stream_link.hpp), whose
// host keeps its own worker alive across faults and hangs; this side then only watches the link.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/worker_link.hpp"
#include "client/worker_options.hpp"
#include "client/worker_result.hpp"
#include "protocol/protocol.hpp"
#include "values/run_report.hpp"
#include "values/run_request.hpp"

namespace kplay {

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
    // The full resolution of a view this worker made downsampled (OutputView::full_view_key); `thorough`
    // says which of a remote host's workers made it. Answered as a run (WorkerResult::run.view).
    uint64_t submit_view(const std::string& key, bool thorough);
    // Tells the worker the rest of run `id` is no longer wanted (a newer run overtook it): once its
    // checked result has gone it skips its timed repeats, further sizes and ceiling, and its final
    // answer comes at once (kCutShortWarning). Does nothing unless that run is the one in flight.
    void cut_short(uint64_t id);

    // Advances the state machine without blocking; returns a finished result if there is one.
    std::optional<WorkerResult> poll();
    // Blocks (sleeping in poll(2), not spinning) until request `id` is finished.
    WorkerResult wait(uint64_t id);

    bool idle() const { return queue_.empty() && !in_flight_; }
    int restarts() const { return starts_ > 0 ? starts_ - 1 : 0; }
    pid_t worker_pid() const { return link_->pid(); }
    // The descriptor answers arrive on (-1 when no worker runs), for a caller's poll(2).
    int wait_fd() const { return link_->wait_fd(); }
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
    const RemoteStatus& remote_status() const { return link_->status(); }

private:
    using Clock = std::chrono::steady_clock;

    uint64_t enqueue(MessageKind kind, nlohmann::json body, std::string description);
    uint64_t send_if_idle(uint64_t id = 0);  // returns `id`
    uint64_t cut_sent_ = 0;                  // the run in flight already told to stop
    std::optional<WorkerResult> advance();
    std::optional<WorkerResult> send_next();
    void take_next();
    std::optional<WorkerResult> receive();
    void follow_progress(const nlohmann::json& message);
    WorkerResult take_answer(Frame frame);
    WorkerResult decode(Frame frame);
    WorkerResult time_out();
    WorkerResult fail_in_flight(WorkerFailure failure, const std::string& message);
    WorkerResult fail_link(const LinkEnding& ending);
    void note_failure();
    double limit_for(Phase phase) const;
    void set_deadline(double seconds);

    WorkerOptions options_;
    std::unique_ptr<WorkerLink> link_;
    std::deque<WorkerRequest> queue_;
    std::optional<WorkerRequest> in_flight_;
    Clock::time_point sent_at_{};
    Clock::time_point deadline_{};
    Phase phase_ = Phase::gpu;  // what the in-flight run is doing, by the worker's last progress message
    double phase_fraction_ = -1;
    Clock::time_point next_start_{};
    std::vector<Clock::time_point> recent_failures_;
    uint64_t next_id_ = 1;
    int starts_ = 0;
    bool gave_up_ = false;
    std::string gave_up_message_;
    std::deque<WorkerResult> finished_;
};

}  // namespace kplay
