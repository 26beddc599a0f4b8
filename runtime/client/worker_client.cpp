// Supervision of kplay-worker: spawning, the request queue, the watchdog, restarts and crash loops.
#include "client/worker_client.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "base/enum_names.hpp"
#include "base/error.hpp"
#include "client/codec.hpp"
#include "client/protocol.hpp"

extern char** environ;

namespace kplay {

namespace {

constexpr size_t kStderrTailBytes = 8192;

constexpr EnumNames<WorkerFailure, 7> kFailures{{{WorkerFailure::none, "none"},
                                                 {WorkerFailure::timeout, "timeout"},
                                                 {WorkerFailure::crashed, "crashed"},
                                                 {WorkerFailure::protocol, "protocol"},
                                                 {WorkerFailure::gave_up, "gave_up"},
                                                 {WorkerFailure::start_failed, "start_failed"},
                                                 {WorkerFailure::disconnected, "disconnected"}}};

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", seconds);
    return text;
}

}  // namespace

const char* worker_failure_name(WorkerFailure failure) { return enum_name(kFailures, failure); }
std::optional<WorkerFailure> parse_worker_failure(std::string_view text) { return enum_value(kFailures, text); }

std::filesystem::path default_worker_path() {
    if (const char* env = std::getenv("KPLAY_WORKER"); env && *env) return env;
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path("kplay-worker") : exe.parent_path() / "kplay-worker";
}

WorkerClient::WorkerClient(WorkerOptions options) : options_(std::move(options)) {
    if (options_.worker_path.empty()) options_.worker_path = default_worker_path();
    if (options_.remote) remote_status_.label = options_.remote->label;
}

void WorkerClient::set_timeouts(double run_s, double compile_s, double cpu_s) {
    options_.run_timeout_s = run_s;
    options_.compile_timeout_s = compile_s;
    options_.cpu_timeout_s = cpu_s;
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
    const uint64_t id = enqueue(MessageKind::run, request, "running " + request.kernel_path.string());
    if (remote()) {
        // The host reads no path of ours: the files travel with the request, the image by its hash.
        Pending& pending = queue_.back();
        pending.message[remote_field::files] = bundle_files(request.kernel_path, request.source);
        if (!request.inputs.image_path.empty()) pending.image = read_image_upload(request.inputs.image_path);
    }
    return id;
}
uint64_t WorkerClient::submit_compile(const CompileFileRequest& request) {
    const uint64_t id = enqueue(MessageKind::compile, request, "compiling " + request.path.string());
    if (remote()) queue_.back().message[remote_field::files] = bundle_files(request.path, request.source);
    return id;
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
    if (remote()) {
        // The command's stdin and stdout are one end of a socketpair; its stderr (ssh's messages, the
        // remote shell's, device printf) a pipe read into a tail. Its own process group, so a killed
        // connection takes `sh -c`'s children with it.
        int pair[2], errors[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0 || pipe2(errors, O_CLOEXEC) != 0) {
            why = std::string("cannot create the connection's pipes: ") + std::strerror(errno);
            return false;
        }
        UniqueFd ours(pair[0]), theirs(pair[1]), error_read(errors[0]), error_write(errors[1]);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, theirs.get(), 0);
        posix_spawn_file_actions_adddup2(&actions, theirs.get(), 1);
        posix_spawn_file_actions_adddup2(&actions, error_write.get(), 2);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
        std::vector<std::string> args = options_.remote->argv;
        std::vector<char*> argv;
        for (auto& arg : args) argv.push_back(arg.data());
        argv.push_back(nullptr);
        pid_t pid = 0;
        const int spawned = posix_spawnp(&pid, args[0].c_str(), &actions, &attributes, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (spawned != 0) {
            why = "cannot start " + args[0] + ": " + std::strerror(spawned);
            return false;
        }
        fcntl(ours.get(), F_SETFL, fcntl(ours.get(), F_GETFL) | O_NONBLOCK);
        fcntl(error_read.get(), F_SETFL, fcntl(error_read.get(), F_GETFL) | O_NONBLOCK);
        socket_ = std::move(ours);
        stderr_ = std::move(error_read);
        stderr_tail_.clear();
        stream_reader_ = StreamFrameReader();
        awaiting_hello_ = true;
        started_at_ = Clock::now();
        sent_images_.clear();
        remote_status_.connected = false;
        ++remote_status_.connections;
        pid_ = pid;
        ++starts_;
        return true;
    }
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

void WorkerClient::kill_worker() {
    if (pid_ <= 0) return;
    if (remote()) kill(-pid_, SIGKILL);  // the command's whole process group
    kill(pid_, SIGKILL);
}

void WorkerClient::stop_worker(bool kill_now) {
    if (pid_ <= 0) return;
    socket_.reset();  // a healthy worker exits when its socket closes (a remote one: when ssh's stdin does)
    remote_status_.connected = false;
    if (kill_now) {
        kill_worker();
    } else {
        // Give it a moment to exit on its own, then make sure. A remote side needs a round trip to go.
        const int tries = remote() ? 250 : 50;
        for (int i = 0; i < tries; ++i) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = 0;
                stderr_.reset();
                return;
            }
            usleep(2000);
        }
        kill_worker();
    }
    reap_description();
    stderr_.reset();
}

void WorkerClient::drain_stderr() {
    if (!stderr_) return;
    char data[4096];
    for (;;) {
        const ssize_t n = read(stderr_.get(), data, sizeof data);
        if (n <= 0) {
            if (n == 0) stderr_.reset();
            return;
        }
        stderr_tail_.append(data, static_cast<size_t>(n));
        if (stderr_tail_.size() > kStderrTailBytes) stderr_tail_.erase(0, stderr_tail_.size() - kStderrTailBytes);
        // Once the worker is up, what it prints (device printf) goes where a local worker's would.
        if (!awaiting_hello_) (void)!write(2, data, static_cast<size_t>(n));
    }
}

double WorkerClient::link_margin_s() const {
    // The host's watchdog answers first; this one only catches a link (or a host) that went silent.
    const double link_s = remote_status_.link_ms > 0 ? remote_status_.link_ms / 1000 : 0;
    return 5 + 4 * link_s;
}

std::optional<Frame> WorkerClient::next_frame() { return remote() ? stream_reader_.next() : reader_.next(); }

FrameReader::Status WorkerClient::read_more() {
    const FrameReader::Status status = remote() ? stream_reader_.read_from(socket_.get()) : reader_.read_from(socket_.get());
    if (remote()) remote_status_.bytes_received = stream_reader_.traffic().wire_bytes;
    return status;
}

void WorkerClient::send_in_flight() {
    if (!remote()) {
        send_frame(socket_.get(), in_flight_->message);
        return;
    }
    nlohmann::json message = in_flight_->message;
    message[protocol_field::limits] = {{"run_timeout_s", options_.run_timeout_s},
                                       {"compile_timeout_s", options_.compile_timeout_s},
                                       {"cpu_timeout_s", options_.cpu_timeout_s}};
    std::vector<UniqueFd> blobs;
    if (const auto& image = in_flight_->image) {
        const bool cached = std::find(sent_images_.begin(), sent_images_.end(), image->hash) != sent_images_.end();
        message[remote_field::image] = {{"hash", image->hash}, {"extension", image->extension}, {"cached", cached}};
        if (!cached) {
            blobs.push_back(SharedBlob::create(image->bytes.data(), image->bytes.size(), "kplay-image"));
            message[protocol_field::blobs] = nlohmann::json::array({{{protocol_field::name, "image"}, {protocol_field::size, image->bytes.size()}}});
            sent_images_.push_back(image->hash);
        }
    }
    std::vector<int> fds;
    for (const auto& blob : blobs) fds.push_back(blob.get());
    send_stream_frame(socket_.get(), message, fds, &sent_traffic_);
    remote_status_.bytes_sent = sent_traffic_.wire_bytes;
}

WorkerResult WorkerClient::fail_connection(bool before_hello) {
    drain_stderr();
    int status = 0;
    pid_t result = pid_;
    if (exited_status_) {
        status = *exited_status_;  // already reaped
    } else {
        do {
            result = pid_ > 0 ? waitpid(pid_, &status, 0) : -1;
        } while (result < 0 && errno == EINTR);
    }
    exited_status_.reset();
    std::string how = "its exit status is unknown";
    int exit_status = -1;
    if (result > 0 && WIFEXITED(status)) {
        exit_status = WEXITSTATUS(status);
        how = options_.remote->argv[0] + " exited with status " + std::to_string(exit_status);
    } else if (result > 0 && WIFSIGNALED(status)) {
        how = options_.remote->argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + sigabbrev_np(WTERMSIG(status)) + ")";
    }
    pid_ = 0;
    socket_.reset();
    stderr_.reset();
    remote_status_.connected = false;
    note_failure();
    if (before_hello)
        return fail_in_flight(WorkerFailure::start_failed, connection_failure_message(*options_.remote, how, exit_status, stderr_tail_));
    const std::string said = last_message_line(stderr_tail_);
    return fail_in_flight(WorkerFailure::disconnected, "The connection to " + options_.remote->label + " was lost while " +
                                                           in_flight_->description + " (" + how + (said.empty() ? "" : ": " + said) +
                                                           "). The next run reconnects.");
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
    if (remote()) {
        if (const auto host_ms = message.find("host_ms"); host_ms != message.end() && host_ms->is_number()) {
            // A connection's first request waited for the hello: its link time starts there.
            const double waited = std::chrono::duration<double, std::milli>(std::max(sent_at_, hello_at_) - sent_at_).count();
            result.link_ms = std::max(0.0, result.elapsed_ms - waited - host_ms->get<double>());
            remote_status_.link_ms = result.link_ms;
        }
        // The host's supervisor lost its worker (a crash, its watchdog): a failure of this request, with
        // the report the supervisor made of it, while the connection itself lives on.
        if (const auto failure = message.find(protocol_field::failure); failure != message.end() && failure->is_object()) {
            result.failure = parse_worker_failure(failure->value("kind", "")).value_or(WorkerFailure::crashed);
            result.failure_message = failure->value("message", "");
        }
    }
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
            result.stats.supervisor_rss_bytes = body.value("supervisor_rss_bytes", int64_t{-1});
            break;
        case MessageKind::ping:
        case MessageKind::progress:
        case MessageKind::hello: break;
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
        const double timeout = (in_flight_->kind == MessageKind::run       ? options_.compile_timeout_s
                                : in_flight_->kind == MessageKind::compile ? options_.compile_timeout_s
                                                                           : std::max(10.0, options_.compile_timeout_s)) +
                               (remote() ? link_margin_s() : 0);
        deadline_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout));
        try {
            send_in_flight();
        } catch (const ProtocolError&) {
            // The worker is gone before it could take the request; the read below reports how it ended.
        }
    }
    if (!in_flight_) return std::nullopt;
    if (remote()) {
        drain_stderr();
        // The command ended while its children may still hold the socket open (`sh -c` that forked):
        // the connection is over all the same.
        int status = 0;
        if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
            kill(-pid_, SIGKILL);
            exited_status_ = status;
            return fail_connection(awaiting_hello_);
        }
    }

    const auto drain_until = Clock::now() + std::chrono::milliseconds(6);
    try {
        for (;;) {
            if (auto frame = next_frame()) {
                if (awaiting_hello_) {
                    // A remote side first says who it is; anything else is not kplay-worker --stdio.
                    if (message_kind(frame->message) != MessageKind::hello)
                        throw ProtocolError("the remote side did not begin with kplay-worker's hello");
                    awaiting_hello_ = false;
                    hello_at_ = Clock::now();
                    remote_status_.connected = true;
                    remote_status_.connect_ms = std::chrono::duration<double, std::milli>(Clock::now() - started_at_).count();
                    continue;
                }
                if (message_kind(frame->message) == MessageKind::progress) {
                    // The run entered another phase, or got further in it: a new phase is timed by its
                    // own limit from now on; a fraction alone only updates what the user sees.
                    const Phase phase = parse_phase(frame->message.value(protocol_field::phase, "")).value_or(Phase::gpu);
                    phase_fraction_ = frame->message.value(protocol_field::fraction, -1.0);
                    if (phase != phase_ || phase_fraction_ < 0) {
                        phase_ = phase;
                        const double limit = limit_for(phase) + (remote() ? link_margin_s() : 0);
                        deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
                    }
                    continue;
                }
                // Decode before letting go of the request: a bad answer still fails *this* request.
                const bool partial = frame->message.value(protocol_field::partial, false) && in_flight_->kind == MessageKind::run;
                WorkerResult result = decode(*in_flight_, std::move(*frame));
                if (partial) {
                    result.partial = true;  // the final answer follows; the request stays in flight
                    return result;
                }
                in_flight_.reset();
                if (result.kind == MessageKind::run && result.run.sticky_fault() && !remote()) {
                    // The worker's CUDA context is dead: replace the process before the next request.
                    stop_worker(false);
                    result.run.error += " The worker process was replaced; the next run starts clean.";
                }
                return result;
            }
            const FrameReader::Status status = read_more();
            if (status == FrameReader::Status::need_more) {
                // A stream holds only a socket buffer's worth (about 200 KiB) until it is read: an answer of
                // some MiB read once per window frame would take dozens of frames. While one is arriving,
                // keep reading for a few milliseconds (the caller's frame budget allows that).
                if (remote() && stream_reader_.has_partial_data() && Clock::now() < drain_until) {
                    pollfd watch{socket_.get(), POLLIN, 0};
                    if (::poll(&watch, 1, 1) > 0) continue;
                }
                break;
            }
            if (status == FrameReader::Status::closed && remote()) return fail_connection(awaiting_hello_);
            if (status == FrameReader::Status::closed) {
                const std::string how = reap_description();
                socket_.reset();
                note_failure();
                return fail_in_flight(WorkerFailure::crashed, "kplay-worker died while " + in_flight_->description + ": " + how +
                                                                  ". It will be restarted for the next request.");
            }
        }
    } catch (const ProtocolVersionMismatch& error) {
        // Retrying cannot help: the host has another kplay-worker until it is updated.
        kill_worker();
        reap_description();
        socket_.reset();
        stderr_.reset();
        const RemoteTarget* target = options_.remote ? &*options_.remote : nullptr;
        gave_up_ = true;
        gave_up_message_ =
            target ? "kplay-worker on " + target->label + " speaks protocol version " + std::to_string(error.peer_version()) +
                         "; this kplay speaks " + std::to_string(error.our_version()) + ". Update it: " +
                         (target->via_ssh ? "kplay-cli remote-install " + target->destination + (target->port ? ":" + std::to_string(target->port) : "")
                                          : "install the same kplay version on the other side of `" + target->try_command + "`") + "."
                   : std::string(error.what());
        return fail_in_flight(WorkerFailure::protocol, gave_up_message_);
    } catch (const std::exception& error) {
        kill_worker();
        reap_description();
        socket_.reset();
        stderr_.reset();
        note_failure();
        if (remote()) {
            const bool before = awaiting_hello_;
            remote_status_.connected = false;
            return fail_in_flight(WorkerFailure::protocol,
                                  before ? "What came back from `" + options_.remote->try_command + "` is not kplay-worker's protocol (" +
                                               error.what() + "): does the remote shell print something at login, or is the command not kplay-worker --stdio?"
                                         : "kplay-worker on " + options_.remote->label + " sent a broken answer while " + in_flight_->description +
                                               " (" + error.what() + "); the connection was closed and the next run reconnects.");
        }
        return fail_in_flight(WorkerFailure::protocol, std::string("kplay-worker sent a broken answer while ") +
                                                           in_flight_->description + " (" + error.what() + "); it was restarted.");
    }

    if (Clock::now() > deadline_ && remote()) {
        // The host's own watchdog would have answered by now: the link or the host is stuck.
        const double waited = std::chrono::duration<double>(Clock::now() - sent_at_).count();
        kill_worker();
        reap_description();
        socket_.reset();
        stderr_.reset();
        remote_status_.connected = false;
        note_failure();
        return fail_in_flight(WorkerFailure::timeout, "No answer from " + options_.remote->label + " within " + seconds_text(std::round(waited)) +
                                                          " while " + in_flight_->description +
                                                          "; the connection was closed and the next run reconnects.");
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
            pollfd watch[2] = {{socket_.get(), POLLIN, 0}, {stderr_ ? stderr_.get() : -1, POLLIN, 0}};
            ::poll(watch, 2, 20);
        } else {
            usleep(10000);
        }
    }
}

}  // namespace kplay
