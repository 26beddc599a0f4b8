// The host's side of a remote worker (`kplay-worker --stdio`, started by ssh): it speaks the protocol
// as stream frames on stdin/stdout and runs each request in a local kplay-worker it supervises, so a
// sticky fault, a crash or an endless kernel costs a worker process, never the connection.
#pragma once

#include <filesystem>

namespace kplay {

struct SupervisorOptions {
    std::filesystem::path worker_path;  // the kplay-worker to start (the supervisor's own program)
    int in_fd = 0;                      // requests arrive here
    int out_fd = 1;                     // answers go here
};

// Says hello, then serves requests until `in_fd` closes (the connection ended); every worker it started
// is killed and reaped before it returns. Returns the process's exit status.
int serve_stream(const SupervisorOptions& options);

}  // namespace kplay
