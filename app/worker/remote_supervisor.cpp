// The remote supervisor's loop: read a request, unpack its files, hand it to a local WorkerClient,
// forward its progress, and pass its worker's answer on (or the failure its supervision reported).
#include "remote_supervisor.hpp"

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
#include "values/codec.hpp"
#include "protocol/protocol.hpp"
#include "protocol/request_dispatch.hpp"
#include "protocol/stream_frames.hpp"
#include "client/remote_bundle.hpp"
#include "client/worker_answer.hpp"
#include "client/worker_client.hpp"

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

class Supervisor final : public RequestHandler {
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
                start(next);
            }
        }
    }

    // Each request goes to the worker for its mode, its files written into the private folder first.
    void on_run(uint64_t id, const Frame& request) override {
        const nlohmann::json& message = request.message;
        apply_limits(message);
        RunRequest run = message.at(protocol_field::body).get<RunRequest>();
        run.kernel_path = scratch_.write_files(message, run.kernel_path);
        for (std::string& dir : run.include_dirs) dir = scratch_.host_path(message, dir).string();
        if (message.contains(remote_field::image)) run.inputs.image_path = take_image(message, request.fds).string();
        else if (!run.inputs.image_path.empty())  // the client could not read it: fail as it would there
            run.inputs.image_path = scratch_.host_path(message, run.inputs.image_path).string();
        WorkerClient& client = begin(id, MessageKind::run, client_for(run.emulation_thorough));
        job_->worker_id = client.submit_run(run);
    }
    void on_compile(uint64_t id, const Frame& request) override {
        apply_limits(request.message);
        CompileFileRequest compile = request.message.at(protocol_field::body).get<CompileFileRequest>();
        compile.path = scratch_.write_files(request.message, compile.path);
        for (std::string& dir : compile.include_dirs) dir = scratch_.host_path(request.message, dir).string();
        begin(id, MessageKind::compile, client_for(false)).submit_compile(compile);
    }
    void on_devices(uint64_t id, const Frame& request) override {
        apply_limits(request.message);
        begin(id, MessageKind::devices, client_for(false)).submit_devices();
    }
    void on_stats(uint64_t id, const Frame& request) override {
        apply_limits(request.message);
        begin(id, MessageKind::stats, client_for(false)).submit_stats();
    }
    void on_ping(uint64_t id, const Frame& request) override {
        apply_limits(request.message);
        begin(id, MessageKind::ping, client_for(false)).submit_ping();
    }
    void on_view(uint64_t id, const Frame& request) override {
        apply_limits(request.message);
        const nlohmann::json& body = request.message.at(protocol_field::body);
        const bool thorough = body.value("thorough", false);
        begin(id, MessageKind::view, client_for(thorough)).submit_view(body.value("key", ""), thorough);
    }
    // Passed on at once to the worker running that run (take() never queues a cut behind it).
    void on_cut(uint64_t id) override {
        if (job_ && job_->id == id && job_->kind == MessageKind::run) job_->client->cut_short(job_->worker_id);
    }
    void send_error(const nlohmann::json& answer) override { send_stream_frame(options_.out_fd, answer); }

private:
    struct Job {
        uint64_t id = 0;
        MessageKind kind = MessageKind::ping;
        WorkerClient* client = nullptr;
        Clock::time_point received{};
        Phase phase = Phase::compile;
        double fraction = -2;  // what was last forwarded (-2: nothing yet)
        uint64_t worker_id = 0;  // a run's id with that worker (what a cut names there)
    };

    // The supervisor's workers hand their answers on as they came (WorkerOptions::relay).
    WorkerClient& client_for(bool thorough) {
        std::unique_ptr<WorkerClient>& client = thorough ? thorough_ : normal_;
        if (!client) {
            WorkerOptions worker;
            worker.worker_path = options_.worker_path;
            worker.thorough = thorough;
            worker.relay = true;
            client = std::make_unique<WorkerClient>(worker);
        }
        return *client;
    }

    void take(Frame frame) {
        if (frame.message.is_object() && message_kind(frame.message) == MessageKind::cut) {
            dispatch_request(frame, *this);  // about the run in flight: never behind it
            return;
        }
        if (job_ || !waiting_.empty()) {
            if (waiting_.size() >= kMaxWaitingRequests) {
                send_error(refusal(frame.message, "too many requests at once"));
                return;
            }
            waiting_.push_back(std::move(frame));
            return;
        }
        start(frame);
    }

    void start(const Frame& request) {
        received_ = Clock::now();
        try {
            dispatch_request(request, *this);
        } catch (const std::exception& error) {
            job_.reset();
            send_error(refusal(request.message, std::string("a malformed request: ") + error.what()));
        }
    }

    // The request is the job now, in `client`'s hands.
    WorkerClient& begin(uint64_t id, MessageKind kind, WorkerClient& client) {
        job_ = Job{id, kind, &client, received_};
        return client;
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

    // The worker's answer goes on as it came, its shared-memory blobs now inline; a request the worker
    // could not answer gets the answer a worker would have sent with the failure's report. Added here:
    // the client's id, this host's memory in stats, the failure, the client's paths and the host's time.
    void answer(WorkerResult& result) {
        Frame frame = result.answer ? std::move(*result.answer) : Frame{failed_answer(result), {}};
        nlohmann::json& message = frame.message;
        message[protocol_field::id] = job_->id;
        message[protocol_field::type] = message_kind_name(job_->kind);
        if (job_->kind == MessageKind::stats)
            message[protocol_field::body]["supervisor_rss_bytes"] = resident_memory_bytes();
        if (!result.ok())
            message[protocol_field::failure] = {{"kind", worker_failure_name(result.failure)}, {"message", result.failure_message}};
        scratch_.restore_client_paths(message);
        message["host_ms"] = std::chrono::duration<double, std::milli>(Clock::now() - job_->received).count();
        if (result.partial) message[protocol_field::partial] = true;  // the job goes on: its final answer follows
        else job_.reset();
        std::vector<int> fds;
        for (const auto& blob : frame.fds) fds.push_back(blob.get());
        send_stream_frame(options_.out_fd, message, fds);
    }

    SupervisorOptions options_;
    RemoteScratch scratch_;
    StreamFrameReader reader_;
    std::unique_ptr<WorkerClient> normal_, thorough_;
    std::optional<Job> job_;
    Clock::time_point received_{};  // when the request being started arrived
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
