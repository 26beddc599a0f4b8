// A process a link started (kplay-worker, or the command that reaches one elsewhere): killed, waited
// for, and how it ended, in words.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace kplay {

class ChildProcess {
public:
    ChildProcess() = default;
    // group: the process leads a process group of its own, which is killed with it.
    ChildProcess(pid_t pid, bool group) : pid_(pid), group_(group) {}

    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }
    void kill() const;  // SIGKILL
    // Waits for it to end; its wait status, or nullopt when that cannot be had. It is gone afterwards.
    std::optional<int> wait();
    // Its wait status when it has already ended (then it is gone), else nullopt.
    std::optional<int> try_wait();
    // Gives it `tries` times 2 ms to end on its own; true when it did (then it is gone).
    bool ends_within(int tries);

private:
    pid_t pid_ = 0;
    bool group_ = false;
};

// "WHO exited with status N" or "WHO was killed by signal N (KILL)"; empty for any other status.
std::string exit_description(int status, const std::string& who);

// argv as execve wants it: pointers into `args`, then a null.
std::vector<char*> argv_of(std::vector<std::string>& args);

}  // namespace kplay
