// How a WorkerClient reaches its worker. The client keeps the queue, the ids and the supervision (the
// watchdog per phase, restarts with backoff, giving up after quick failures); a link starts the worker,
// carries requests and answers, and says what an ending, a silence or a broken answer means on it.
// Two links: LocalLink (a kplay-worker of this machine over a socketpair, blobs in shared memory) and
// StreamLink (a command such as `ssh host kplay-worker --stdio` whose stdin and stdout carry stream frames).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "client/remote_bundle.hpp"
#include "client/worker_options.hpp"
#include "client/worker_result.hpp"
#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"
#include "protocol/stream_frames.hpp"

namespace kplay {

// How the link to a remote worker is doing, for the window's status bar.
struct RemoteStatus {
    std::string label;            // the host
    std::string host;             // the host's own name, from the worker's hello (a Slurm node's, say)
    bool connected = false;       // a connection has said hello and is open
    int connections = 0;          // made so far
    double connect_ms = -1;       // the last connection: starting the command until the worker's hello
    double link_ms = -1;          // the last answer: its time minus the host's, the round trip and transfer
    uint64_t bytes_sent = 0, bytes_received = 0;  // on the wire, after compression
};

// A request on its way to the worker.
struct WorkerRequest {
    uint64_t id = 0;
    MessageKind kind = MessageKind::ping;
    nlohmann::json message;
    std::string description;           // "running kernels_src/x.cu"
    std::optional<ImageUpload> image;  // a stream link's input image, sent unless the other side has it
};

// How the link ended under a request: the failure to report, and the message for the user.
struct LinkEnding {
    WorkerFailure failure = WorkerFailure::crashed;
    std::string message;
};

class WorkerLink {
public:
    using Clock = std::chrono::steady_clock;
    virtual ~WorkerLink() = default;

    // Starts the worker (or the command); false, with why, when it cannot.
    virtual bool start(std::string& why) = 0;
    virtual bool running() const = 0;
    virtual pid_t pid() const = 0;  // the worker's, or the command's; 0 when none runs
    virtual int wait_fd() const = 0;  // where answers arrive (-1 when none runs)
    // Closes the link and ends the process: at once, or after a moment to exit on its own.
    virtual void stop(bool kill_now) = 0;

    // Makes a request whole for the other side: a stream link's host reads no path of this machine, so
    // the kernel's files (headers from its include= and the user's `include_dirs` too) and the input
    // image travel with it; a local worker reads them where they are.
    virtual void pack(WorkerRequest& request, const std::filesystem::path& kernel_path, const std::optional<std::string>& source,
                      const std::vector<std::string>& include_dirs, const std::string& image_path) = 0;
    // Throws ProtocolError when the worker is gone (what came before it is read afterwards).
    virtual void send(const WorkerRequest& request, const WorkerOptions& limits) = 0;
    // The next whole frame received (a stream link first takes the worker's hello for itself).
    virtual std::optional<Frame> next_frame() = 0;
    virtual FrameReader::Status read_more() = 0;
    // After read_more() found nothing: true when the rest of a frame being received is worth waiting
    // for (at most until `until`) rather than coming back on the caller's next poll.
    virtual bool await_rest(Clock::time_point until) = 0;
    // Sleeps until something arrives or `timeout_ms` passes; false at once when nothing is open.
    virtual bool wait_for_input(int timeout_ms) = 0;
    // What the link reads from an answer beyond its body (a remote host's time and failure).
    virtual void read_answer_extras(const nlohmann::json& answer, Clock::time_point sent_at, WorkerResult& result) = 0;

    // The supervision's questions, answered per link. `doing` is the request's description.
    // Between reads: nullopt, or how the link ended although it has not closed (a command that exited).
    virtual std::optional<LinkEnding> check(const std::string& doing) = 0;
    // The link closed under a request (the process is reaped).
    virtual LinkEnding closed(const std::string& doing) = 0;
    // What to say of an answer that could not be read (`what`), before the link is stopped.
    virtual std::string broken_answer(const std::string& doing, const std::string& what) const = 0;
    // What to say of a worker of another protocol version (retrying cannot help).
    virtual std::string other_version(const ProtocolVersionMismatch& error) const = 0;
    // The watchdog's deadline passed: nullopt when the worker itself overran (the client says which
    // phase), or the message when the link went silent (the other side's watchdog answers first).
    virtual std::optional<std::string> silence(const std::string& doing, const std::string& waited) const = 0;
    // Added to every limit of the watchdog: the round trip a link needs beyond the worker's own time.
    virtual double watchdog_margin_s() const = 0;
    // The worker process is replaced on the other side after a sticky fault, not by this client.
    virtual bool replaces_its_own_worker() const = 0;
    virtual const RemoteStatus& status() const = 0;
};

}  // namespace kplay
