// fork + exec of gdb over two pipes; a line reader with poll() and a deadline.
#include "session/gdb_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "base/subprocess.hpp"
#include "base/write_all.hpp"

namespace kplay {

namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<GdbProcess> GdbProcess::start(const std::string& gdb, const std::vector<std::string>& program, std::string& problem) {
    const std::string path = gdb.find('/') == std::string::npos ? find_in_path(gdb) : gdb;
    if (path.empty() || access(path.c_str(), X_OK) != 0) {
        problem = "The debugger needs gdb, and '" + gdb + "' was not found (install it: `apt-get install gdb`).";
        return std::nullopt;
    }
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        problem = "Cannot make a pipe for gdb.";
        return std::nullopt;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        problem = "Cannot make a pipe for gdb.";
        return std::nullopt;
    }
    std::vector<std::string> args{path, "--interpreter=mi3", "--nx", "--quiet", "--args"};
    args.insert(args.end(), program.begin(), program.end());
    std::vector<char*> argv = argv_of(args);
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);  // gdb and the programs it starts: one group, killed together
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        problem = "Cannot start gdb (fork failed).";
        return std::nullopt;
    }
    setpgid(pid, pid);  // also here, so that a kill right after the fork finds the group
    signal(SIGPIPE, SIG_IGN);  // gdb ending between two commands is an answer, not the end of this process
    return GdbProcess(ChildProcess(pid, true), UniqueFd(in[1]), UniqueFd(out[0]));
}

GdbProcess::GdbProcess(GdbProcess&& other) noexcept
    : child_(other.child_), to_(std::move(other.to_)), from_(std::move(other.from_)), pending_(std::move(other.pending_)),
      next_token_(other.next_token_) {
    other.child_ = ChildProcess();
}

GdbProcess& GdbProcess::operator=(GdbProcess&& other) noexcept {
    if (this != &other) {
        kill();
        child_ = other.child_;
        other.child_ = ChildProcess();
        to_ = std::move(other.to_);
        from_ = std::move(other.from_);
        pending_ = std::move(other.pending_);
        next_token_ = other.next_token_;
    }
    return *this;
}

GdbProcess::~GdbProcess() noexcept { kill(); }

void GdbProcess::kill() noexcept {
    if (!child_.running()) return;
    child_.kill();
    child_.wait();
    to_.reset();
    from_.reset();
}

bool GdbProcess::send(const std::string& line) {
    return write_all(to_.get(), line + "\n") == 0;
}

std::optional<MiRecord> GdbProcess::next_record(double deadline_s, std::string& error) {
    for (;;) {
        if (const size_t end = pending_.find('\n'); end != std::string::npos) {
            const std::string line = pending_.substr(0, end);
            pending_.erase(0, end + 1);
            if (auto record = parse_mi_record(line)) return record;
            continue;  // not gdb's (a program's output on the same stream): not ours to read
        }
        const double left = deadline_s - now_s();
        if (left <= 0) {
            error = "gdb did not answer in time";
            return std::nullopt;
        }
        pollfd poll_fd{from_.get(), POLLIN, 0};
        const int ready = poll(&poll_fd, 1, static_cast<int>(left * 1000) + 1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = read(from_.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            error = "gdb ended";
            return std::nullopt;
        }
        pending_.append(buffer, static_cast<size_t>(n));
    }
}

MiAnswer GdbProcess::command(const std::string& text, double timeout_s) {
    MiAnswer answer;
    if (!child_.running()) {
        answer.error = "gdb is not running";
        return answer;
    }
    const long token = next_token_++;
    if (!send(std::to_string(token) + text)) {
        answer.error = "gdb ended";
        return answer;
    }
    const double deadline = now_s() + timeout_s;
    while (auto record = next_record(deadline, answer.error)) {
        if (record->type != MiRecordType::result || record->token != token) continue;
        answer.result = *record;
        answer.ok = record->record_class != "error";
        if (!answer.ok) answer.error = record->text_of("msg");
        return answer;
    }
    return answer;
}

MiAnswer GdbProcess::run(const std::string& text, double timeout_s) {
    MiAnswer answer = command(text, 30);
    if (!answer.ok) return answer;
    const double deadline = now_s() + timeout_s;
    while (auto record = next_record(deadline, answer.error)) {
        if (record->type == MiRecordType::exec && record->record_class == "stopped") {
            answer.stopped = *record;
            return answer;
        }
    }
    answer.ok = false;
    return answer;
}

}  // namespace kplay
