// gdb started with its machine interface (`gdb --interpreter=mi3`): commands in, records out.
//
// gdb runs in a process group of its own with the programs it starts, all killed with it. A command
// waits for its result record; a command that resumes the program (-exec-run, -exec-next) then waits for
// the *stopped record that ends the run. Every wait has a limit, so a wedged gdb is a message.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/child_process.hpp"
#include "base/unique_fd.hpp"
#include "inspect/mi_record.hpp"

namespace kplay {

// A command's result: ^done (ok), or ^error with gdb's message; `stopped` after a command that ran
// the program; `problem` when gdb itself did not answer.
struct MiAnswer {
    bool ok = false;
    MiRecord result;
    std::optional<MiRecord> stopped;
    std::string error;  // ^error's msg, or what went wrong with gdb
};

class GdbProcess {
public:
    // Starts `gdb` (a path or a name in PATH) with `program` and its arguments (gdb --args), not yet
    // running; `problem` says why when it could not be started.
    static std::optional<GdbProcess> start(const std::string& gdb, const std::vector<std::string>& program, std::string& problem);

    GdbProcess(GdbProcess&& other) noexcept;
    GdbProcess& operator=(GdbProcess&& other) noexcept;
    GdbProcess(const GdbProcess&) = delete;
    GdbProcess& operator=(const GdbProcess&) = delete;
    ~GdbProcess() noexcept;

    // A command and its result record, within `timeout_s`.
    MiAnswer command(const std::string& text, double timeout_s = 30);
    // A command that resumes the program (^running), then the *stopped record that ends the run.
    MiAnswer run(const std::string& text, double timeout_s);
    // gdb and everything it started, ended now.
    void kill() noexcept;

private:
    GdbProcess(ChildProcess child, UniqueFd to, UniqueFd from) : child_(child), to_(std::move(to)), from_(std::move(from)) {}
    // The next record, or nullopt when none came within the deadline (or gdb ended): `error` says which.
    std::optional<MiRecord> next_record(double deadline_s, std::string& error);
    bool send(const std::string& line);

    ChildProcess child_;
    UniqueFd to_, from_;
    std::string pending_;  // read, not yet a whole line
    long next_token_ = 1;
};

}  // namespace kplay
