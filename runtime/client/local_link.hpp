// The link to a kplay-worker on this machine: it is spawned with its end of a socketpair as fd 3, and
// frames carry large data as shared-memory blobs (memfd descriptors). A closed socket means the worker
// died: a crash, reported with how it ended; the client restarts it for the next request.
#pragma once

#include "client/child_process.hpp"
#include "client/worker_link.hpp"

namespace kplay {

class LocalLink final : public WorkerLink {
public:
    explicit LocalLink(WorkerOptions options) : options_(std::move(options)) {}
    ~LocalLink() override { stop(false); }

    bool start(std::string& why) override;
    bool running() const override { return process_.running(); }
    pid_t pid() const override { return process_.pid(); }
    int wait_fd() const override { return socket_ ? socket_.get() : -1; }
    void stop(bool kill_now) override;

    void pack(WorkerRequest&, const std::filesystem::path&, const std::optional<std::string>&, const std::vector<std::string>&,
              const std::string&) override {}
    void send(const WorkerRequest& request, const WorkerOptions& limits) override;
    std::optional<Frame> next_frame() override { return reader_.next(); }
    FrameReader::Status read_more() override { return reader_.read_from(socket_.get()); }
    bool await_rest(Clock::time_point) override { return false; }  // a socket's frames arrive whole and fast
    bool wait_for_input(int timeout_ms) override;
    void read_answer_extras(const nlohmann::json&, Clock::time_point, WorkerResult&) override {}

    std::optional<LinkEnding> check(const std::string&) override { return std::nullopt; }
    LinkEnding closed(const std::string& doing) override;
    std::string broken_answer(const std::string& doing, const std::string& what) const override;
    std::string other_version(const ProtocolVersionMismatch& error) const override { return error.what(); }
    std::optional<std::string> silence(const std::string&, const std::string&) const override { return std::nullopt; }
    double watchdog_margin_s() const override { return 0; }
    bool replaces_its_own_worker() const override { return false; }
    const RemoteStatus& status() const override { return status_; }

private:
    WorkerOptions options_;
    ChildProcess process_;
    UniqueFd socket_;
    FrameReader reader_;
    RemoteStatus status_;  // none: there is no remote link
};

}  // namespace kplay
