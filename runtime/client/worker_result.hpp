// What a WorkerClient hands back for one request: the decoded answer, or how the request failed.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"
#include "values/run_report.hpp"

namespace kplay {

// disconnected: a remote worker's connection ended (the next request reconnects).
enum class WorkerFailure { none, timeout, crashed, protocol, gave_up, start_failed, disconnected };
const char* worker_failure_name(WorkerFailure failure);
std::optional<WorkerFailure> parse_worker_failure(std::string_view text);

struct WorkerStats {
    int64_t rss_bytes = 0;
    int64_t device_used_bytes = -1;     // -1 when no device context exists
    int64_t supervisor_rss_bytes = -1;  // a remote worker's supervisor on the host; -1 for a local worker
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
    // WorkerOptions::relay: the worker's answer as it came (its JSON and blobs), left undecoded; none
    // for a failure. Shared, so that a result stays copyable.
    std::shared_ptr<Frame> answer;
    bool ok() const { return failure == WorkerFailure::none; }
};

}  // namespace kplay
