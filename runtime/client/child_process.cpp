// Killing and reaping a link's process; SIGKILL then waitpid, which is when a GPU frees its memory.
#include "client/child_process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kplay {

void ChildProcess::kill() const {
    if (pid_ <= 0) return;
    if (group_) ::kill(-pid_, SIGKILL);  // the command's children too (`sh -c` that forked)
    ::kill(pid_, SIGKILL);
}

std::optional<int> ChildProcess::wait() {
    if (pid_ <= 0) return std::nullopt;
    int status = 0;
    pid_t result;
    do {
        result = waitpid(pid_, &status, 0);
    } while (result < 0 && errno == EINTR);
    pid_ = 0;
    if (result <= 0) return std::nullopt;
    return status;
}

std::optional<int> ChildProcess::try_wait() {
    int status = 0;
    if (pid_ <= 0 || waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
    pid_ = 0;
    return status;
}

bool ChildProcess::ends_within(int tries) {
    for (int i = 0; i < tries; ++i) {
        if (try_wait()) return true;
        usleep(2000);
    }
    return false;
}

std::string exit_description(int status, const std::string& who) {
    if (WIFEXITED(status)) return who + " exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        return who + " was killed by signal " + std::to_string(signal) + " (" + sigabbrev_np(signal) + ")";
    }
    return "";
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    return argv;
}

}  // namespace kplay
