// Starting the command, the hello, the images the host already has, and what the link's end means.
#include "client/stream_link.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace kplay {

namespace {

constexpr size_t kStderrTailBytes = 8192;

}  // namespace

StreamLink::StreamLink(RemoteTarget target) : target_(std::move(target)) { status_.label = target_.label; }

bool StreamLink::start(std::string& why) {
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
    std::vector<std::string> args = target_.argv;
    std::vector<char*> argv = argv_of(args);
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
    reader_ = StreamFrameReader();
    awaiting_hello_ = true;
    started_at_ = Clock::now();
    sent_images_.clear();
    status_.connected = false;
    ++status_.connections;
    process_ = ChildProcess(pid, true);
    return true;
}

void StreamLink::stop(bool kill_now) {
    if (!process_.running()) return;
    socket_.reset();  // the remote side exits when ssh's stdin closes
    status_.connected = false;
    // Give it a moment to exit on its own, then make sure; a remote side needs a round trip to go.
    if (kill_now || !process_.ends_within(250)) {
        process_.kill();
        process_.wait();
    }
    stderr_.reset();
}

void StreamLink::pack(WorkerRequest& request, const std::filesystem::path& kernel_path, const std::optional<std::string>& source,
                      const std::vector<std::string>& include_dirs, const std::string& image_path) {
    // The host reads no path of ours: the files travel with the request, the image by its hash.
    request.message[remote_field::files] = bundle_files(kernel_path, source, include_dirs);
    std::error_code ignored;
    request.message[remote_field::client_folder] = std::filesystem::current_path(ignored).string();
    if (!image_path.empty()) request.image = read_image_upload(image_path);
}

void StreamLink::send(const WorkerRequest& request, const WorkerOptions& limits) {
    nlohmann::json message = request.message;
    message[protocol_field::limits] = {{"run_timeout_s", limits.run_timeout_s},
                                       {"compile_timeout_s", limits.compile_timeout_s},
                                       {"cpu_timeout_s", limits.cpu_timeout_s}};
    std::vector<UniqueFd> blobs;
    if (const auto& image = request.image) {
        const bool cached = std::find(sent_images_.begin(), sent_images_.end(), image->hash) != sent_images_.end();
        message[remote_field::image] = {{"hash", image->hash}, {"extension", image->extension}, {"cached", cached}};
        if (!cached) {
            blobs.push_back(SharedBlob::create(image->bytes.data(), image->bytes.size(), "kplay-image"));
            message[protocol_field::blobs] =
                nlohmann::json::array({{{protocol_field::name, "image"}, {protocol_field::size, image->bytes.size()}}});
            sent_images_.push_back(image->hash);
        }
    }
    std::vector<int> fds;
    for (const auto& blob : blobs) fds.push_back(blob.get());
    send_stream_frame(socket_.get(), message, fds, &sent_traffic_);
    status_.bytes_sent = sent_traffic_.wire_bytes;
}

std::optional<Frame> StreamLink::next_frame() {
    std::optional<Frame> frame = reader_.next();
    if (frame && awaiting_hello_) {
        // A remote side first says who it is; anything else is not kplay-worker --stdio.
        if (message_kind(frame->message) != MessageKind::hello)
            throw ProtocolError("the remote side did not begin with kplay-worker's hello");
        awaiting_hello_ = false;
        hello_at_ = Clock::now();
        if (const auto body = frame->message.find(protocol_field::body); body != frame->message.end() && body->is_object())
            status_.host = body->value("host", "");
        status_.connected = true;
        status_.connect_ms = std::chrono::duration<double, std::milli>(hello_at_ - started_at_).count();
        frame = reader_.next();
    }
    return frame;
}

FrameReader::Status StreamLink::read_more() {
    const FrameReader::Status status = reader_.read_from(socket_.get());
    status_.bytes_received = reader_.traffic().wire_bytes;
    return status;
}

bool StreamLink::await_rest(Clock::time_point until) {
    // A stream holds only a socket buffer's worth (about 200 KiB) until it is read: an answer of some
    // MiB read once per window frame would take dozens of frames. While one is arriving, keep reading
    // for a few milliseconds (the caller's frame budget allows that).
    if (!reader_.has_partial_data() || Clock::now() >= until) return false;
    pollfd watch{socket_.get(), POLLIN, 0};
    return ::poll(&watch, 1, 1) > 0;
}

bool StreamLink::wait_for_input(int timeout_ms) {
    if (!socket_) return false;
    pollfd watch[2] = {{socket_.get(), POLLIN, 0}, {stderr_ ? stderr_.get() : -1, POLLIN, 0}};
    ::poll(watch, 2, timeout_ms);
    return true;
}

void StreamLink::read_answer_extras(const nlohmann::json& answer, Clock::time_point sent_at, WorkerResult& result) {
    if (const auto host_ms = answer.find("host_ms"); host_ms != answer.end() && host_ms->is_number()) {
        // A connection's first request waited for the hello: its link time starts there.
        const double waited = std::chrono::duration<double, std::milli>(std::max(sent_at, hello_at_) - sent_at).count();
        result.link_ms = std::max(0.0, result.elapsed_ms - waited - host_ms->get<double>());
        status_.link_ms = result.link_ms;
    }
    // The host's supervisor lost its worker (a crash, its watchdog): a failure of this request, with
    // the report the supervisor made of it, while the connection itself lives on.
    if (const auto failure = answer.find(protocol_field::failure); failure != answer.end() && failure->is_object()) {
        result.failure = parse_worker_failure(failure->value("kind", "")).value_or(WorkerFailure::crashed);
        result.failure_message = failure->value("message", "");
    }
}

void StreamLink::drain_stderr() {
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

std::optional<LinkEnding> StreamLink::check(const std::string& doing) {
    drain_stderr();
    // The command ended while its children may still hold the socket open (`sh -c` that forked): the
    // connection is over all the same.
    const pid_t group = process_.pid();
    const std::optional<int> status = process_.try_wait();
    if (!status) return std::nullopt;
    kill(-group, SIGKILL);
    drain_stderr();
    return ended(status, doing);
}

LinkEnding StreamLink::closed(const std::string& doing) {
    drain_stderr();
    return ended(process_.wait(), doing);
}

LinkEnding StreamLink::ended(std::optional<int> wait_status, const std::string& doing) {
    std::string how = wait_status ? exit_description(*wait_status, target_.argv[0]) : "";
    if (how.empty()) how = "its exit status is unknown";
    const int exit_status = wait_status && WIFEXITED(*wait_status) ? WEXITSTATUS(*wait_status) : -1;
    socket_.reset();
    stderr_.reset();
    status_.connected = false;
    if (awaiting_hello_)
        return {WorkerFailure::start_failed, connection_failure_message(target_, how, exit_status, stderr_tail_)};
    const std::string said = last_message_line(stderr_tail_);
    return {WorkerFailure::disconnected, "The connection to " + target_.label + " was lost while " + doing + " (" +
                                             how + (said.empty() ? "" : ": " + said) + "). The next run reconnects."};
}

std::string StreamLink::broken_answer(const std::string& doing, const std::string& what) const {
    if (awaiting_hello_)
        return "What came back from `" + target_.try_command + "` is not kplay-worker's protocol (" + what +
               "): does the remote shell print something at login, or is the command not kplay-worker --stdio?";
    return "kplay-worker on " + target_.label + " sent a broken answer while " + doing + " (" + what +
           "); the connection was closed and the next run reconnects.";
}

std::string StreamLink::other_version(const ProtocolVersionMismatch& error) const {
    const std::string update =
        target_.via_ssh
            ? "kplay-cli remote-install " + target_.destination + (target_.port ? ":" + std::to_string(target_.port) : "")
            : "install the same kplay version on the other side of `" + target_.try_command + "`";
    return "kplay-worker on " + target_.label + " speaks protocol version " + std::to_string(error.peer_version()) +
           "; this kplay speaks " + std::to_string(error.our_version()) + ". Update it: " + update + ".";
}

std::optional<std::string> StreamLink::silence(const std::string& doing, const std::string& waited) const {
    // The host's own watchdog would have answered by now: the link or the host is stuck.
    return "No answer from " + target_.label + " within " + waited + " while " + doing +
           "; the connection was closed and the next run reconnects.";
}

double StreamLink::watchdog_margin_s() const {
    // The host's watchdog answers first; this one only catches a link (or a host) that went silent.
    const double link_s = status_.link_ms > 0 ? status_.link_ms / 1000 : 0;
    return 5 + 4 * link_s;
}

}  // namespace kplay
