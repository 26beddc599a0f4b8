// The link to a remote worker: a command (`ssh host kplay-worker --stdio`, or any --remote-command)
// whose stdin and stdout carry stream frames with blobs inline. The host's supervisor keeps its own
// worker alive across faults and hangs and answers them as failures; this side only watches the link.
// The other side first says hello (a header of another protocol version is refused with how to
// update); a connection that ends is reported, with the command's last complaint from its stderr, and
// the next request reconnects; a link that stays silent past the host's limit plus a margin for the
// round trip is closed. An input image is sent once per connection, then named by its hash.
#pragma once

#include <vector>

#include "client/child_process.hpp"
#include "client/worker_link.hpp"

namespace kplay {

class StreamLink final : public WorkerLink {
public:
    explicit StreamLink(RemoteTarget target);
    ~StreamLink() override { stop(false); }

    bool start(std::string& why) override;
    bool running() const override { return process_.running(); }
    pid_t pid() const override { return process_.pid(); }
    int wait_fd() const override { return socket_ ? socket_.get() : -1; }
    void stop(bool kill_now) override;

    void pack(WorkerRequest& request, const std::filesystem::path& kernel_path, const std::optional<std::string>& source,
              const std::vector<std::string>& include_dirs, const std::string& image_path) override;
    void send(const WorkerRequest& request, const WorkerOptions& limits) override;
    std::optional<Frame> next_frame() override;
    FrameReader::Status read_more() override;
    bool await_rest(Clock::time_point until) override;
    bool wait_for_input(int timeout_ms) override;
    void read_answer_extras(const nlohmann::json& answer, Clock::time_point sent_at, WorkerResult& result) override;

    std::optional<LinkEnding> check(const std::string& doing) override;
    LinkEnding closed(const std::string& doing) override;
    std::string broken_answer(const std::string& doing, const std::string& what) const override;
    std::string other_version(const ProtocolVersionMismatch& error) const override;
    std::optional<std::string> silence(const std::string& doing, const std::string& waited) const override;
    double watchdog_margin_s() const override;
    bool replaces_its_own_worker() const override { return true; }
    const RemoteStatus& status() const override { return status_; }

private:
    void drain_stderr();
    LinkEnding ended(std::optional<int> wait_status, const std::string& doing);

    RemoteTarget target_;
    ChildProcess process_;  // the command, leading a process group of its own
    UniqueFd socket_;       // its stdin and stdout
    StreamFrameReader reader_;
    UniqueFd stderr_;          // what ssh and the remote side print
    std::string stderr_tail_;  // its last few KiB, for a failed connection's message
    bool awaiting_hello_ = false;
    Clock::time_point started_at_{}, hello_at_{};
    std::vector<std::string> sent_images_;  // content hashes the host has in this connection
    StreamTraffic sent_traffic_;
    RemoteStatus status_;
};

}  // namespace kplay
