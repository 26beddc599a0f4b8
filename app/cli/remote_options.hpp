// The options every kplay-cli command that reaches a worker shares: --remote HOST and --remote-command;
// and --pool SPEC, for the commands that reach several workers at once.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "client/pool_launch.hpp"
#include "client/worker_client.hpp"

namespace kplay::cli {

struct RemoteOptions {
    std::string remote;   // [user@]host[:port]
    std::string command;  // any command whose stdin/stdout carry the protocol
};

void add_remote_options(CLI::App* command, RemoteOptions& options);

// `base` with the remote worker set when one was asked for. Throws InputError for a bad destination.
WorkerOptions worker_options(const RemoteOptions& options, WorkerOptions base = {});

struct PoolCliOptions {
    std::vector<std::string> specs;  // each --pool value (client/pool_spec.hpp says what one holds)
    double timeout_s = 60;           // --pool-timeout: how long a worker may take to come up
};

// --pool and --pool-timeout, after add_remote_options (--pool excludes --remote and --remote-command).
void add_pool_options(CLI::App* command, PoolCliOptions& options);

PoolOptions pool_options(const PoolCliOptions& options, WorkerOptions base = {});

}  // namespace kplay::cli
