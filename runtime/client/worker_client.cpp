// Supervision of kplay-worker: spawning, the request queue, the watchdog, restarts and crash loops.
#include "client/worker_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "client/codec.hpp"
#include "client/protocol.hpp"

extern char** environ;

namespace kplay {

namespace {

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", seconds);
    return text;
}

}  // namespace

std::filesystem::path default_worker_path() {
    if (const char* env = std::getenv("KPLAY_WORKER"); env && *env) return env;
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path("kplay-worker") : exe.parent_path() / "kplay-worker";
}

WorkerClient::WorkerClient(WorkerOptions options) : options_(std::move(options)) {
    if (options_.worker_path.empty()) options_.worker_path = default_worker_path();
}

WorkerClient::~WorkerClient() { stop_worker(false); }

uint64_t WorkerClient::enqueue(MessageKind kind, nlohmann::json body, std::string description) {
    Pending pending;
    pending.id = next_id_++;
    pending.kind = kind;
    pending.message = request_message(kind, pending.id, std::move(body));
    pending.description = std::move(description);
    queue_.push_back(std::move(pending));
    return queue_.back().id;
}

uint64_t WorkerClient::submit_run(const RunRequest& request) {
    return enqueue(MessageKind::run, request, "running " + request.kernel_path.string());
}
uint64_t WorkerClient::submit_compile(const CompileFileRequest& request) {
    return enqueue(MessageKind::compile, request, "compiling " + request.path.string());
}
uint64_t WorkerClient::submit_devices() { return enqueue(MessageKind::devices, nullptr, "listing devices"); }
uint64_t WorkerClient::submit_stats() { return enqueue(MessageKind::stats, nullptr, "reading worker statistics"); }
uint64_t WorkerClient::submit_ping() { return enqueue(MessageKind::ping, nullptr, "checking the worker"); }

void WorkerClient::reset_crash_loop() {
    gave_up_ = false;
    gave_up_message_.clear();
    recent_failures_.clear();
    next_start_ = {};
}

bool WorkerClient::start_worker(std::string& why) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        why = std::string("cannot create the worker's socket: ") + std::strerror(errno);
        return false;
    }
    UniqueFd ours(pair[0]), theirs(pair[1]);
    // The worker gets its end as fd 3 and writes anything it prints (device printf) to stderr, so the
    // CLI's stdout stays clean for JSON.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, theirs.get(), 3);
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
    std::vector<std::string> args{options_.worker_path.string(), "--fd", "3"};
    if (options_.thorough) args.push_back("--thorough");
    args.insert(args.end(), options_.worker_args.begin(), options_.worker_args.end());
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<char*> environment;
    for (char** entry = environ; *entry; ++entry) environment.push_back(*entry);
    std::vector<std::string> extra = options_.extra_environment;
    for (auto& entry : extra) environment.push_back(entry.data());
    environment.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environment.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        why = "cannot start " + args[0] + ": " + std::strerror(spawned);
        return false;
    }
    fcntl(ours.get(), F_SETFL, fcntl(ours.get(), F_GETFL) | O_NONBLOCK);
    socket_ = std::move(ours);
    reader_ = FrameReader();
    pid_ = pid;
    ++starts_;
    return true;
}

std::string WorkerClient::reap_description() {
    if (pid_ <= 0) return "the worker was not running";
    int status = 0;
    pid_t result;
    do {
        result = waitpid(pid_, &status, 0);
    } while (result < 0 && errno == EINTR);
    pid_ = 0;
    if (result <= 0) return "the worker's exit status is unknown";
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        return std::string("the worker was killed by signal ") + std::to_string(signal) + " (" + sigabbrev_np(signal) + ")";
    }
    if (WIFEXITED(status)) return "the worker exited with status " + std::to_string(WEXITSTATUS(status));
    return "the worker stopped";
}

void WorkerClient::stop_worker(bool kill_now) {
    if (pid_ <= 0) return;
    socket_.reset();  // a healthy worker exits when its socket closes
    if (kill_now) {
        kill(pid_, SIGKILL);
    } else {
        // Give it a moment to exit on its own, then make sure.
        for (int i = 0; i < 50; ++i) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = 0;
                return;
            }
            usleep(2000);
        }
        kill(pid_, SIGKILL);
    }
    reap_description();
}

void WorkerClient::note_failure() {
    const auto now = Clock::now();
    recent_failures_.push_back(now);
    const auto window = std::chrono::duration<double>(options_.quick_failure_window_s);
    std::erase_if(recent_failures_, [&](Clock::time_point t) { return now - t > window; });
    const int count = static_cast<int>(recent_failures_.size());
    if (count >= options_.max_quick_failures) {
        gave_up_ = true;
        gave_up_message_ = "kplay-worker failed " + std::to_string(count) + " times within " +
                           seconds_text(options_.quick_failure_window_s) + "; not restarting it again until asked.";
    }
    // Back off before the next start: 100 ms, 200 ms, 400 ms ... up to 2 s.
    const double backoff = std::min(2.0, 0.1 * std::pow(2.0, count - 1));
    next_start_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(backoff));
}

WorkerResult WorkerClient::fail_in_flight(WorkerFailure failure, const std::string& message) {
    WorkerResult result;
    result.id = in_flight_->id;
    result.kind = in_flight_->kind;
    result.failure = failure;
    result.failure_message = message;
    result.worker_pid = pid_;
    result.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at_).count();
    if (result.kind == MessageKind::run) {
        result.run.file = in_flight_->message[protocol_field::body].value("kernel_path", "");
        result.run.stage = Stage::worker;
        result.run.error = message;
        result.run.error_code = failure == WorkerFailure::timeout ? "KPLAY_TIMEOUT" : "KPLAY_WORKER_FAILED";
    } else if (result.kind == MessageKind::compile) {
        result.compile.input_error = message;
    }
    in_flight_.reset();
    return result;
}

WorkerResult WorkerClient::decode(const Pending& pending, Frame frame) {
    WorkerResult result;
    result.id = pending.id;
    result.kind = pending.kind;
    result.worker_pid = pid_;
    result.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - sent_at_).count();
    const nlohmann::json& message = frame.message;
    if (message.value(protocol_field::id, uint64_t{0}) != pending.id) throw ProtocolError("the worker answered a different request");
    if (message.contains(protocol_field::error))
        throw ProtocolError("the worker could not handle the request: " + message[protocol_field::error].get<std::string>());
    const nlohmann::json& body = message.at(protocol_field::body);
    switch (pending.kind) {
        case MessageKind::run:
            result.run = body.get<RunReport>();
            read_report_blobs(message.at(protocol_field::blobs), frame.fds, result.run);
            break;
        case MessageKind::compile:
            result.compile = body.get<CompileFileResult>();
            read_compile_blobs(message.value(protocol_field::blobs, nlohmann::json::array()), frame.fds, result.compile);
            break;
        case MessageKind::devices: result.devices = body.get<DeviceQuery>(); break;
        case MessageKind::stats:
            result.stats.rss_bytes = body.at("rss_bytes");
            result.stats.device_used_bytes = body.at("device_used_bytes");
            break;
        case MessageKind::ping:
        case MessageKind::progress: break;
    }
    return result;
}

std::optional<WorkerResult> WorkerClient::poll() {
    if (!finished_.empty()) {
        WorkerResult result = std::move(finished_.front());
        finished_.pop_front();
        return result;
    }
    return advance();
}

double WorkerClient::limit_for(Phase phase) const {
    switch (phase) {
        case Phase::cpu: return options_.cpu_timeout_s;
        case Phase::compile: return options_.compile_timeout_s;
        case Phase::gpu: return options_.run_timeout_s;
    }
    return options_.run_timeout_s;
}

std::optional<WorkerResult> WorkerClient::advance() {
    const auto now = Clock::now();
    if (!in_flight_ && !queue_.empty()) {
        if (gave_up_) {
            in_flight_ = std::move(queue_.front());
            queue_.pop_front();
            sent_at_ = now;
            return fail_in_flight(WorkerFailure::gave_up, gave_up_message_);
        }
        if (pid_ <= 0) {
            if (now < next_start_) return std::nullopt;  // backing off after a failure
            std::string why;
            if (!start_worker(why)) {
                in_flight_ = std::move(queue_.front());
                queue_.pop_front();
                sent_at_ = now;
                note_failure();
                return fail_in_flight(WorkerFailure::start_failed, why);
            }
        }
        in_flight_ = std::move(queue_.front());
        queue_.pop_front();
        sent_at_ = now;
        phase_ = in_flight_->kind == MessageKind::run ? Phase::compile : Phase::gpu;
        phase_fraction_ = -1;
        const double timeout = in_flight_->kind == MessageKind::run       ? options_.compile_timeout_s
                               : in_flight_->kind == MessageKind::compile ? options_.compile_timeout_s
                                                                          : std::max(10.0, options_.compile_timeout_s);
        deadline_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout));
        try {
            send_frame(socket_.get(), in_flight_->message);
        } catch (const ProtocolError&) {
            // The worker is gone before it could take the request; the read below reports how it ended.
        }
    }
    if (!in_flight_) return std::nullopt;

    try {
        for (;;) {
            if (auto frame = reader_.next()) {
                if (message_kind(frame->message) == MessageKind::progress) {
                    // The run entered another phase, or got further in it: a new phase is timed by its
                    // own limit from now on; a fraction alone only updates what the user sees.
                    const Phase phase = parse_phase(frame->message.value(protocol_field::phase, "")).value_or(Phase::gpu);
                    phase_fraction_ = frame->message.value(protocol_field::fraction, -1.0);
                    if (phase != phase_ || phase_fraction_ < 0) {
                        phase_ = phase;
                        deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_for(phase)));
                    }
                    continue;
                }
                // Decode before letting go of the request: a bad answer still fails *this* request.
                WorkerResult result = decode(*in_flight_, std::move(*frame));
                in_flight_.reset();
                if (result.kind == MessageKind::run && result.run.sticky_fault()) {
                    // The worker's CUDA context is dead: replace the process before the next request.
                    stop_worker(false);
                    result.run.error += " The worker process was replaced; the next run starts clean.";
                }
                return result;
            }
            const FrameReader::Status status = reader_.read_from(socket_.get());
            if (status == FrameReader::Status::need_more) break;
            if (status == FrameReader::Status::closed) {
                const std::string how = reap_description();
                socket_.reset();
                note_failure();
                return fail_in_flight(WorkerFailure::crashed, "kplay-worker died while " + in_flight_->description + ": " + how +
                                                                  ". It will be restarted for the next request.");
            }
        }
    } catch (const std::exception& error) {
        kill(pid_, SIGKILL);
        reap_description();
        socket_.reset();
        note_failure();
        return fail_in_flight(WorkerFailure::protocol, std::string("kplay-worker sent a broken answer while ") +
                                                           in_flight_->description + " (" + error.what() + "); it was restarted.");
    }

    if (Clock::now() > deadline_) {
        // SIGKILL then waitpid: the GPU frees the process's memory only once it has been reaped.
        kill(pid_, SIGKILL);
        reap_description();
        socket_.reset();
        const bool kernel = in_flight_->kind == MessageKind::run && phase_ == Phase::gpu;
        const double timeout = in_flight_->kind == MessageKind::run ? limit_for(phase_) : options_.compile_timeout_s;
        const std::string what = phase_ == Phase::cpu ? "the CPU reference and check" : phase_ == Phase::compile ? "compiling" : in_flight_->description;
        return fail_in_flight(WorkerFailure::timeout,
                              kernel ? "Kernel did not finish within " + seconds_text(timeout) + " and was stopped — an endless loop?"
                                     : "The worker did not finish " + what + " within " + seconds_text(timeout) + " and was stopped.");
    }
    return std::nullopt;
}

WorkerResult WorkerClient::wait(uint64_t id) {
    for (;;) {
        for (auto it = finished_.begin(); it != finished_.end(); ++it)
            if (it->id == id) {
                WorkerResult result = std::move(*it);
                finished_.erase(it);
                return result;
            }
        if (auto result = advance()) {
            if (result->id == id) return std::move(*result);
            finished_.push_back(std::move(*result));  // someone else's; kept for their poll()
            continue;
        }
        // Sleep until the worker writes or a short tick passes (for the watchdog and backoff).
        if (socket_) {
            pollfd watch{socket_.get(), POLLIN, 0};
            ::poll(&watch, 1, 20);
        } else {
            usleep(10000);
        }
    }
}

}  // namespace kplay
