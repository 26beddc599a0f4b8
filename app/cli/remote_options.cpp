// Registering --remote / --remote-command and --pool, and turning them into WorkerOptions and PoolOptions.
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

void add_pool_options(CLI::App* command, PoolCliOptions& options) {
    auto* pool = command->add_option("--pool", options.specs,
                                     "Several workers at once, grouped by device: local (a worker per GPU), local:N, ssh:HOST, "
                                     "slurm[:PARTITION][ xN], cmd:COMMAND; comma-separated or repeated")
                     ->allow_extra_args(false);  // one entry list each, so a FILE after it stays the FILE
    for (const char* name : {"--remote", "--remote-command"})
        if (auto* remote = command->get_option_no_throw(name)) pool->excludes(remote);
    command->add_option("--pool-timeout", options.timeout_s, "Seconds a pool's worker may take to come up (ssh's login, Slurm's allocation)")
        ->check(CLI::PositiveNumber);
}

PoolOptions pool_options(const PoolCliOptions& options, WorkerOptions base) {
    PoolOptions pool;
    pool.base = std::move(base);
    pool.start_timeout_s = options.timeout_s;
    return pool;
}

}  // namespace kplay::cli
