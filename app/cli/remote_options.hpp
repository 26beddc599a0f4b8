// The options every kplay-cli command that reaches a worker shares: --remote HOST and --remote-command.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "client/worker_client.hpp"

namespace kplay::cli {

struct RemoteOptions {
    std::string remote;   // [user@]host[:port]
    std::string command;  // any command whose stdin/stdout carry the protocol
};

void add_remote_options(CLI::App* command, RemoteOptions& options);

// `base` with the remote worker set when one was asked for. Throws InputError for a bad destination.
WorkerOptions worker_options(const RemoteOptions& options, WorkerOptions base = {});

}  // namespace kplay::cli
