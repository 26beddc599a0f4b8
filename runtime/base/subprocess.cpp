// posix_spawn with one pipe for both output streams; the child inherits nothing else we opened. It
// leads its own process group, so that a timeout stops what it started too (ncu's and
// compute-sanitizer's targets).
#include "base/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "base/unique_fd.hpp"

extern char** environ;

namespace kplay {

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s) {
    ProcessResult result;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return result;
    UniqueFd read_end(fds[0]), write_end(fds[1]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, write_end.get(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, write_end.get(), STDERR_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int spawned = argv.empty() ? EINVAL : posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    write_end.reset();  // only the child writes now: end of output is end of the child
    if (spawned != 0) {
        result.output = "could not start " + (argv.empty() ? std::string("(nothing)") : argv[0]);
        return result;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    char buffer[4096];
    for (;;) {
        if (timeout_s > 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            pollfd ready{read_end.get(), POLLIN, 0};
            const int polled = left > 0 ? poll(&ready, 1, static_cast<int>(left)) : 0;
            if (polled < 0 && errno == EINTR) continue;
            if (polled == 0) {  // out of time: stop the whole group, then collect it below
                result.timed_out = true;
                kill(-pid, SIGKILL);
                break;
            }
        }
        const ssize_t n = read(read_end.get(), buffer, sizeof buffer);
        if (n > 0) result.output.append(buffer, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR) break;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && !result.timed_out) result.exit_code = WEXITSTATUS(status);
    return result;
}

std::string find_in_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = dirs.find(':', start);
        const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!dir.empty()) {
            const std::string candidate = dir + "/" + name;
            if (access(candidate.c_str(), X_OK) == 0) return candidate;
        }
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return {};
}

}  // namespace kplay
