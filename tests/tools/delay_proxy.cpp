// A stdio proxy that delays every chunk by N ms each way, so that a local command looks like one across a slow link.
//
//   delay_proxy --delay-ms N [--log FILE] -- COMMAND [ARGS...]
//
// Starts COMMAND with its stdin and stdout on pipes (stderr and the process group are inherited) and
// relays this process's stdin to the child's stdin ("in") and the child's stdout to this process's stdout
// ("out"). Each chunk is delivered N ms after it was read, in order, so a request/answer round trip gains
// 2N ms; the chunks are queued with their due times, so the delay does not limit throughput. For example
// `delay_proxy --delay-ms 10 -- kplay-worker --stdio` looks like a worker 20 ms of round trip away.
//
//   EOF on stdin          what is queued is delivered, then the child's stdin is closed
//   EOF on child stdout   what is queued is delivered; once the child has exited, its status is ours
//                         (128+signal when it was killed)
//   our stdout breaks     the child is killed (SIGKILL) and reaped; exit 141 (128+SIGPIPE)
//   SIGTERM/HUP/INT       the child is killed and reaped; exit 128+signal
//   --log FILE            appends "DIRECTION BYTES DELAY_MS" per delivered chunk (DIRECTION: in or out;
//                         DELAY_MS: from the read to the end of the delivery, measured)
// Usage errors exit 2; a COMMAND that cannot be started exits 127. POSIX, with two Linux refinements
// (PR_SET_PDEATHSIG, a private non-blocking stdout); no kplay code.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

// A pipe holds 64 KiB, so reads rarely return more. A read of at least kKeepSize bytes keeps the buffer it
// was read into (no copy: the copies cost more than the syscalls at 100+ MB/s); a smaller one is copied
// out, so that a queue of small chunks does not hold 64 KiB each.
constexpr size_t kReadSize = 64 * 1024;
constexpr size_t kKeepSize = 16 * 1024;
// Past this much queued in one direction, that side is not read until the queue drains: the reader then
// waits on a writer that is slower than the link anyway, and memory stays bounded.
constexpr size_t kMaxQueued = 64u * 1024 * 1024;

int g_signal_pipe[2] = {-1, -1};

void on_signal(int sig) {
    const int saved = errno;
    const unsigned char byte = static_cast<unsigned char>(sig);
    [[maybe_unused]] ssize_t ignored = write(g_signal_pipe[1], &byte, 1);
    errno = saved;
}

void usage(const char* message) {
    if (message) std::fprintf(stderr, "delay_proxy: %s\n", message);
    std::fprintf(stderr,
                 "usage: delay_proxy --delay-ms N [--log FILE] -- COMMAND [ARGS...]\n"
                 "  Runs COMMAND with its stdin/stdout relayed through this process, each chunk delivered\n"
                 "  N ms after it was read (one way; a round trip gains 2N ms). --log FILE appends\n"
                 "  \"in|out BYTES DELAY_MS\" per delivered chunk.\n");
}

struct Chunk {
    std::unique_ptr<char[]> bytes;
    size_t size = 0;
    size_t written = 0;
    Clock::time_point read_at;
    Clock::time_point due;
};

// One direction of the relay: chunks read from `from`, waiting to be written to `to`.
struct Direction {
    Direction(const char* name_, int from_, int to_, bool bounded)
        : name(name_), from(from_), to(to_), bounded_writes(bounded) {}
    const char* name;
    int from;
    int to;
    // Whether a write to `to` may block (see open_output): then at most PIPE_BUF bytes go per POLLOUT,
    // which in a pipe guarantees room for that much.
    bool bounded_writes;
    bool eof = false;  // `from` is finished (EOF or error)
    std::deque<Chunk> queue;
    size_t queued = 0;
};

void set_nonblocking(int fd) {
    const int flags = fcntl(fd, F_GETFL);
    if (flags != -1) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Our stdout as a descriptor to write to, and whether a write to it may block (then at most PIPE_BUF
// bytes go per POLLOUT). Setting O_NONBLOCK on the inherited descriptor itself would change it for every
// process sharing it (a `2>&1` child's stderr, a terminal), so it is left as it is.
struct Output {
    int fd;
    bool bounded;
};
Output open_output() {
    const int flags = fcntl(STDOUT_FILENO, F_GETFL);
    if (flags != -1 && (flags & O_NONBLOCK)) return {STDOUT_FILENO, false};  // already: EAGAIN is handled
    struct stat st {};
    if (fstat(STDOUT_FILENO, &st) != 0) return {STDOUT_FILENO, true};
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
        return {STDOUT_FILENO, false};  // disk writes do not wait on a reader
    // On Linux, opening /proc/self/fd/1 opens the same pipe (terminal, /dev/null) afresh: a description of
    // our own, which can be non-blocking, so big writes need no poll each (PIPE_BUF writes run ~3x
    // slower). Elsewhere, and for sockets, the open fails and the bounded writes remain.
    const int fd = open("/proc/self/fd/1", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat reopened {};
    if (fd >= 0 && fstat(fd, &reopened) == 0 && reopened.st_dev == st.st_dev && reopened.st_ino == st.st_ino)
        return {fd, false};
    if (fd >= 0) close(fd);
    return {STDOUT_FILENO, true};
}

class Logger {
public:
    explicit Logger(int fd) : fd_(fd) {}
    void delivered(const Direction& d, const Chunk& c, Clock::time_point now) const {
        if (fd_ < 0) return;
        const double ms = std::chrono::duration<double, std::milli>(now - c.read_at).count();
        char line[96];
        const int n = std::snprintf(line, sizeof line, "%s %zu %.3f\n", d.name, c.size, ms);
        // One write per line with O_APPEND, so lines of several proxies logging to one file do not mix.
        [[maybe_unused]] ssize_t ignored = write(fd_, line, static_cast<size_t>(n));
    }

private:
    int fd_;
};

int status_to_exit_code(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

// Kills the child (unless already reaped) and waits for it.
void kill_and_reap(pid_t child, bool& reaped) {
    if (reaped) return;
    kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) == -1 && errno == EINTR) {
    }
    reaped = true;
}

// Starts the command with stdin_fd and stdout_fd as its stdin and stdout; returns its pid, or -1 (said on
// stderr) when it cannot be started. fork/exec rather than posix_spawnp, for PR_SET_PDEATHSIG.
pid_t start_child(char** command, int stdin_fd, int stdout_fd) {
    int report[2];  // the child writes exec's errno here; exec closes it on success
    if (pipe2(report, O_CLOEXEC) != 0) {
        std::perror("delay_proxy: pipe");
        return -1;
    }
    // Signals stay blocked across fork, so that none runs our handler in the child before it has reset them.
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        // Default dispositions (ignoring SIGPIPE would survive exec) and an empty mask for the command.
        for (int sig : {SIGPIPE, SIGTERM, SIGHUP, SIGINT, SIGCHLD}) signal(sig, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
#ifdef __linux__
        // Even a SIGKILLed proxy leaves no child (the client kills a remote command's whole process group,
        // which includes the child, but a test may kill just this pid).
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
#endif
        int error = 0;
        if (dup2(stdin_fd, STDIN_FILENO) < 0 || dup2(stdout_fd, STDOUT_FILENO) < 0) {
            error = errno;
        } else {
            execvp(command[0], command);
            error = errno;
        }
        [[maybe_unused]] ssize_t ignored = write(report[1], &error, sizeof error);
        _exit(127);
    }
    const int fork_error = errno;
    sigprocmask(SIG_SETMASK, &old, nullptr);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        std::fprintf(stderr, "delay_proxy: fork: %s\n", std::strerror(fork_error));
        return -1;
    }
    int error = 0;
    ssize_t n;
    do {
        n = read(report[0], &error, sizeof error);
    } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == static_cast<ssize_t>(sizeof error)) {
        std::fprintf(stderr, "delay_proxy: cannot start %s: %s\n", command[0], std::strerror(error));
        while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
        return -1;
    }
    return pid;
}

}  // namespace

int main(int argc, char** argv) {
    long delay_ms = -1;
    const char* log_path = nullptr;
    int cmd_index = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") {
            cmd_index = i + 1;
            break;
        } else if (arg == "--delay-ms" || arg == "--log") {
            if (i + 1 >= argc) {
                usage((arg + " needs a value").c_str());
                return 2;
            }
            const char* value = argv[++i];
            if (arg == "--log") {
                log_path = value;
                continue;
            }
            char* end = nullptr;
            errno = 0;
            delay_ms = std::strtol(value, &end, 10);
            if (errno != 0 || end == value || *end != '\0' || delay_ms < 0 || delay_ms > 24L * 3600 * 1000) {
                usage("--delay-ms needs a whole number of milliseconds (0 or more)");
                return 2;
            }
        } else if (arg == "-h" || arg == "--help") {
            usage(nullptr);
            return 2;
        } else {
            usage(("unknown argument '" + arg + "' (the command goes after --)").c_str());
            return 2;
        }
    }
    if (delay_ms < 0) {
        usage("--delay-ms is required");
        return 2;
    }
    if (cmd_index < 0 || cmd_index >= argc) {
        usage("no COMMAND after --");
        return 2;
    }

    // fds 0-2 must be open, or the pipes below could land on them and be mixed up with stdio.
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) == -1) open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    }

    int log_fd = -1;
    if (log_path) {
        log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (log_fd < 0) {
            std::fprintf(stderr, "delay_proxy: cannot open log %s: %s\n", log_path, std::strerror(errno));
            return 2;
        }
    }
    const Logger logger(log_fd);

    // Signals arrive as bytes on a self-pipe, so the poll loop sees them with everything else.
    if (pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        std::perror("delay_proxy: pipe");
        return 1;
    }
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGHUP, SIGINT, SIGCHLD}) sigaction(sig, &sa, nullptr);
    signal(SIGPIPE, SIG_IGN);  // a broken stdout shows as EPIPE from write

    int to_child[2];    // we write [1], the child's stdin is [0]
    int from_child[2];  // the child's stdout is [1], we read [0]
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
        std::perror("delay_proxy: pipe");
        return 1;
    }
    const pid_t child = start_child(argv + cmd_index, to_child[0], from_child[1]);
    close(to_child[0]);
    close(from_child[1]);
    if (child < 0) return 127;
    bool reaped = false;
    int child_status = 0;

    // Our ends of the child's pipes are ours alone, so they can be non-blocking; stdin and stdout are not.
    set_nonblocking(to_child[1]);
    set_nonblocking(from_child[0]);

    Direction in{"in", STDIN_FILENO, to_child[1], false};
    const Output output = open_output();
    Direction out{"out", from_child[0], output.fd, output.bounded};
    const auto delay = std::chrono::milliseconds(delay_ms);
    std::unique_ptr<char[]> spare(new char[kReadSize]);

    // Stops relaying stdin: the child's stdin is gone. Our stdin is replaced by /dev/null, so whoever
    // writes to it sees the broken pipe, as it would writing to the child directly.
    auto drop_input = [&] {
        if (in.to >= 0) close(in.to);
        in.to = -1;
        in.queue.clear();
        in.queued = 0;
        if (!in.eof) {
            const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (null_fd >= 0) {
                dup2(null_fd, STDIN_FILENO);
                close(null_fd);
            }
            in.eof = true;
        }
    };

    // Reads one chunk; returns false at EOF or on an error.
    auto read_chunk = [&](Direction& d) {
        const ssize_t n = read(d.from, spare.get(), kReadSize);
        if (n > 0) {
            const auto now = Clock::now();
            const auto size = static_cast<size_t>(n);
            std::unique_ptr<char[]> bytes;
            if (size >= kKeepSize) {
                bytes = std::move(spare);
                spare.reset(new char[kReadSize]);
            } else {
                bytes.reset(new char[size]);
                std::memcpy(bytes.get(), spare.get(), size);
            }
            d.queue.push_back(Chunk{std::move(bytes), size, 0, now, now + delay});
            d.queued += size;
            return true;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return true;
        d.eof = true;
        return false;
    };

    // Writes what is due; returns -1 on EPIPE (or another write error), else 0.
    auto write_due = [&](Direction& d) {
        while (!d.queue.empty()) {
            Chunk& c = d.queue.front();
            if (Clock::now() < c.due) return 0;
            size_t len = c.size - c.written;
            if (d.bounded_writes && len > PIPE_BUF) len = PIPE_BUF;
            const ssize_t n = write(d.to, c.bytes.get() + c.written, len);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return 0;
                return -1;
            }
            c.written += static_cast<size_t>(n);
            d.queued -= static_cast<size_t>(n);
            if (c.written == c.size) {
                logger.delivered(d, c, Clock::now());
                d.queue.pop_front();
            }
            if (d.bounded_writes) return 0;  // only one PIPE_BUF write is known not to block; poll again
        }
        return 0;
    };

    for (;;) {
        // stdin at EOF and all of it delivered: the child's stdin is closed.
        if (in.eof && in.queue.empty() && in.to >= 0) {
            close(in.to);
            in.to = -1;
        }
        // The child's stdout at EOF, all of it delivered, and the child gone: done.
        if (out.eof && out.queue.empty() && reaped) return status_to_exit_code(child_status);

        const auto now = Clock::now();
        pollfd fds[6];
        int nfds = 0;
        auto add = [&](int fd, short events) {
            fds[nfds] = pollfd{fd, events, 0};
            return nfds++;
        };
        const int sig_i = add(g_signal_pipe[0], POLLIN);
        const int in_read_i = (!in.eof && in.to >= 0 && in.queued < kMaxQueued) ? add(in.from, POLLIN) : -1;
        const int out_read_i = (!out.eof && out.queued < kMaxQueued) ? add(out.from, POLLIN) : -1;
        int in_write_i = -1, out_write_i = -1;
        long timeout_ms = -1;
        auto schedule = [&](Direction& d, int& write_i) {
            if (d.queue.empty() || d.to < 0) return;
            const auto due = d.queue.front().due;
            if (due <= now) {
                write_i = add(d.to, POLLOUT);
                return;
            }
            // Round up, so as not to wake before the chunk is due and spin.
            const auto wait = std::chrono::ceil<std::chrono::milliseconds>(due - now).count();
            if (timeout_ms < 0 || wait < timeout_ms) timeout_ms = static_cast<long>(wait);
        };
        schedule(in, in_write_i);
        schedule(out, out_write_i);
        // With nothing due for stdout, still watch it: a pipe whose reader has gone reports POLLERR, and
        // that is a broken stdout too, even before there is something to write.
        const int out_watch_i = out_write_i < 0 ? add(out.to, 0) : -1;

        const int ready = poll(fds, static_cast<nfds_t>(nfds), static_cast<int>(timeout_ms));
        if (ready < 0) {
            if (errno == EINTR) continue;
            std::perror("delay_proxy: poll");
            kill_and_reap(child, reaped);
            return 1;
        }

        if (fds[sig_i].revents & POLLIN) {
            unsigned char sigs[64];
            const ssize_t n = read(g_signal_pipe[0], sigs, sizeof sigs);
            for (ssize_t i = 0; i < n; ++i) {
                if (sigs[i] == SIGCHLD) continue;
                kill_and_reap(child, reaped);
                return 128 + sigs[i];
            }
            if (!reaped) {
                int status = 0;
                const pid_t r = waitpid(child, &status, WNOHANG);
                if (r == child) {
                    reaped = true;
                    child_status = status;
                }
            }
        }

        // Reads first: never leave data waiting while something else is done.
        const short readable = POLLIN | POLLHUP | POLLERR;
        if (in_read_i >= 0 && (fds[in_read_i].revents & readable)) read_chunk(in);
        if (out_read_i >= 0 && (fds[out_read_i].revents & readable)) read_chunk(out);

        if (in_write_i >= 0 && fds[in_write_i].revents) {
            if (write_due(in) < 0) drop_input();  // the child closed its stdin (or exited)
        }
        const bool out_broken = out_watch_i >= 0 && (fds[out_watch_i].revents & POLLERR);
        if (out_broken || (out_write_i >= 0 && fds[out_write_i].revents && write_due(out) < 0)) {
            kill_and_reap(child, reaped);
            return 128 + SIGPIPE;
        }
    }
}
