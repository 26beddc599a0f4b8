// Registering --remote / --remote-command and turning them into WorkerOptions.
#include "remote_options.hpp"

#include "base/error.hpp"
#include "client/remote_target.hpp"

namespace kplay::cli {

void add_remote_options(CLI::App* command, RemoteOptions& options) {
    auto* remote = command->add_option("--remote", options.remote,
                                       "Run on a GPU machine over ssh: [user@]host[:port] (kplay-worker installed there, see remote-install)");
    command->add_option("--remote-command", options.command,
                        "Run on a worker reached by this command (its stdin/stdout carry the protocol), e.g. \"gcloud compute ssh box -- kplay-worker --stdio\"")
        ->excludes(remote);
}

WorkerOptions worker_options(const RemoteOptions& options, WorkerOptions base) {
    if (!options.remote.empty()) base.remote = ssh_target(options.remote);
    else if (!options.command.empty()) base.remote = command_target(options.command);
    return base;
}

}  // namespace kplay::cli
