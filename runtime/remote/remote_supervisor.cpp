// The remote supervisor's loop: read a request, unpack its files, hand it to a local WorkerClient,
// forward its progress, and send the answer back (or the failure its supervision reported).
#include "remote/remote_supervisor.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>

#include "base/cache_dir.hpp"
#include "base/error.hpp"
#include "base/process_memory.hpp"
#include "client/codec.hpp"
#include "client/protocol.hpp"
#include "client/stream_frames.hpp"
#include "client/worker_client.hpp"
#include "remote/remote_bundle.hpp"

namespace kplay {

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMaxWaitingRequests = 16;
constexpr size_t kMaxImageBytes = 256u << 20;

std::string host_name() {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

class Supervisor {
public:
    explicit Supervisor(const SupervisorOptions& options) : options_(options) {}

    int run() {
        send_stream_frame(options_.out_fd, {{protocol_field::type, message_kind_name(MessageKind::hello)},
                                            {protocol_field::body,
                                             {{"host", host_name()}, {"pid", getpid()}, {"worker", options_.worker_path.string()},
                                              {"protocol", kProtocolVersion}}}});
        for (;;) {
            pollfd watch[2] = {{options_.in_fd, POLLIN, 0}, {job_ ? job_->client->wait_fd() : -1, POLLIN, 0}};
            ::poll(watch, 2, 20);
            if (watch[0].revents) {
                if (reader_.read_from(options_.in_fd) == StreamFrameReader::Status::closed) return 0;
                while (auto frame = reader_.next()) take(std::move(*frame));
            }
            if (job_) {
                forward_progress();
                if (auto result = job_->client->poll()) answer(*result);
            }
            while (!job_ && !waiting_.empty()) {
                Frame next = std::move(waiting_.front());
                waiting_.pop_front();
                start(std::move(next));
            }
        }
    }

private:
    struct Job {
        uint64_t id = 0;
        MessageKind kind = MessageKind::ping;
        WorkerClient* client = nullptr;
        Clock::time_point received{};
        Phase phase = Phase::compile;
        double fraction = -2;  // what was last forwarded (-2: nothing yet)
    };

    WorkerClient& client_for(bool thorough) {
        std::unique_ptr<WorkerClient>& client = thorough ? thorough_ : normal_;
        if (!client) {
            WorkerOptions worker;
            worker.worker_path = options_.worker_path;
            worker.thorough = thorough;
            client = std::make_unique<WorkerClient>(worker);
        }
        return *client;
    }

    void take(Frame frame) {
        if (job_ || !waiting_.empty()) {
            if (waiting_.size() >= kMaxWaitingRequests) {
                refuse(frame.message, "too many requests at once");
                return;
            }
            waiting_.push_back(std::move(frame));
            return;
        }
        start(std::move(frame));
    }

    void refuse(const nlohmann::json& message, const std::string& why) {
        const uint64_t id = message.is_object() ? message.value(protocol_field::id, uint64_t{0}) : 0;
        const std::string type = message.is_object() && message.contains(protocol_field::type) && message[protocol_field::type].is_string()
                                     ? message[protocol_field::type].get<std::string>()
                                     : "";
        send_stream_frame(options_.out_fd, error_message(id, type, why));
    }

    void apply_limits(const nlohmann::json& message) {
        const auto limits = message.find(protocol_field::limits);
        if (limits == message.end() || !limits->is_object()) return;
        // Bounded: a request cannot keep a worker busy for more than a day.
        auto bounded = [&](const char* name, double fallback) {
            const double value = limits->value(name, fallback);
            return value > 0 && value < 86400 ? value : fallback;
        };
        for (bool thorough : {false, true}) {
            WorkerClient& client = client_for(thorough);
            const WorkerOptions& now = client.options();
            client.set_timeouts(bounded("run_timeout_s", now.run_timeout_s), bounded("compile_timeout_s", now.compile_timeout_s),
                                bounded("cpu_timeout_s", now.cpu_timeout_s));
        }
    }

    // The request's image: written once into the private folder, then named by its hash.
    std::filesystem::path take_image(const nlohmann::json& message, const std::vector<UniqueFd>& fds) {
        const nlohmann::json& image = message.at(remote_field::image);
        const std::filesystem::path path = scratch_.image_path(image.at("hash").get<std::string>(), image.value("extension", ""));
        if (!image.value("cached", false)) {
            const nlohmann::json& blobs = message.at(protocol_field::blobs);
            if (fds.size() != 1 || !blobs.is_array() || blobs.size() != 1) throw InputError("an image upload needs exactly one blob");
            const size_t size = blobs[0].at(protocol_field::size).get<size_t>();
            if (size > kMaxImageBytes) throw InputError("an image larger than 256 MiB is refused");
            const std::vector<unsigned char> bytes = SharedBlob::read(fds[0].get(), size);
            if (!write_file_atomically(path, std::string(bytes.begin(), bytes.end()))) throw InputError("cannot keep the image on the host");
        } else if (!std::filesystem::exists(path)) {
            throw InputError("the host no longer has this image; run again");
        }
        return path;
    }

    void start(Frame frame) {
        const nlohmann::json& message = frame.message;
        const std::optional<MessageKind> kind = message.is_object() ? message_kind(message) : std::nullopt;
        if (!kind || *kind == MessageKind::progress || *kind == MessageKind::hello) {
            refuse(message, "unknown request type");
            return;
        }
        Job job;
        job.id = message.value(protocol_field::id, uint64_t{0});
        job.kind = *kind;
        job.received = Clock::now();
        try {
            apply_limits(message);
            const nlohmann::json files = message.value(remote_field::files, nlohmann::json::array());
            switch (*kind) {
                case MessageKind::run: {
                    RunRequest request = message.at(protocol_field::body).get<RunRequest>();
                    request.kernel_path = scratch_.write_files(files, request.kernel_path);
                    if (message.contains(remote_field::image)) request.inputs.image_path = take_image(message, frame.fds).string();
                    else if (!request.inputs.image_path.empty())  // the client could not read it: fail as it would there
                        request.inputs.image_path = scratch_.write_files(nlohmann::json::array(), request.inputs.image_path).string();
                    job.client = &client_for(request.emulation_thorough);
                    job.client->submit_run(request);
                    break;
                }
                case MessageKind::compile: {
                    CompileFileRequest request = message.at(protocol_field::body).get<CompileFileRequest>();
                    request.path = scratch_.write_files(files, request.path);
                    job.client = &client_for(false);
                    job.client->submit_compile(request);
                    break;
                }
                case MessageKind::devices: job.client = &client_for(false), job.client->submit_devices(); break;
                case MessageKind::stats: job.client = &client_for(false), job.client->submit_stats(); break;
                case MessageKind::ping: job.client = &client_for(false), job.client->submit_ping(); break;
                case MessageKind::progress:
                case MessageKind::hello: break;
            }
        } catch (const std::exception& error) {
            refuse(message, std::string("a malformed request: ") + error.what());
            return;
        }
        job_ = job;
    }

    void forward_progress() {
        const Phase phase = job_->client->phase();
        const double fraction = job_->client->phase_fraction();
        if (job_->kind != MessageKind::run || (phase == job_->phase && fraction == job_->fraction)) return;
        if (job_->fraction == -2 && phase == Phase::compile && fraction < 0) {
            job_->fraction = fraction;  // the client starts a run in the compile phase by itself
            return;
        }
        job_->phase = phase;
        job_->fraction = fraction;
        send_stream_frame(options_.out_fd, progress_message(job_->id, phase, fraction));
    }

    void answer(const WorkerResult& result) {
        nlohmann::json message = {{protocol_field::id, job_->id}, {protocol_field::type, message_kind_name(job_->kind)}};
        ReportBlobs blobs;
        switch (job_->kind) {
            case MessageKind::run:
                blobs = make_report_blobs(result.run);
                message[protocol_field::body] = result.run;
                message[protocol_field::blobs] = blobs.list;
                break;
            case MessageKind::compile:
                blobs = make_compile_blobs(result.compile);
                message[protocol_field::body] = result.compile;
                message[protocol_field::blobs] = blobs.list;
                break;
            case MessageKind::devices: message[protocol_field::body] = result.devices; break;
            case MessageKind::stats:
                message[protocol_field::body] = {{"rss_bytes", result.stats.rss_bytes},
                                                 {"device_used_bytes", result.stats.device_used_bytes},
                                                 {"supervisor_rss_bytes", resident_memory_bytes()}};
                break;
            case MessageKind::ping: message[protocol_field::body] = {{"pid", result.worker_pid}}; break;
            case MessageKind::progress:
            case MessageKind::hello: break;
        }
        if (!result.ok())
            message[protocol_field::failure] = {{"kind", worker_failure_name(result.failure)}, {"message", result.failure_message}};
        scratch_.restore_client_paths(message);
        message["host_ms"] = std::chrono::duration<double, std::milli>(Clock::now() - job_->received).count();
        if (result.partial) message[protocol_field::partial] = true;  // the job goes on: its final answer follows
        else job_.reset();
        std::vector<int> fds;
        for (const auto& blob : blobs.fds) fds.push_back(blob.get());
        send_stream_frame(options_.out_fd, message, fds);
    }

    SupervisorOptions options_;
    RemoteScratch scratch_;
    StreamFrameReader reader_;
    std::unique_ptr<WorkerClient> normal_, thorough_;
    std::optional<Job> job_;
    std::deque<Frame> waiting_;
};

}  // namespace

int serve_stream(const SupervisorOptions& options) {
    // A closed connection shows up as EPIPE from a write, not as a signal that skips the cleanup.
    signal(SIGPIPE, SIG_IGN);
    try {
        Supervisor supervisor(options);
        return supervisor.run();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "kplay-worker --stdio: %s\n", error.what());
        return 2;
    }
}

}  // namespace kplay
