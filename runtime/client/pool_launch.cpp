// Launches from pool members, and one worker's start: its first answer under the pool's deadline, and
// what its failure means.
#include "client/pool_launch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "base/text.hpp"
#include "client/device_groups.hpp"

namespace kplay {

namespace {

using Clock = std::chrono::steady_clock;

WorkerLaunch local_launch(const PoolMember& member, const PoolOptions& options) {
    WorkerLaunch launch;
    launch.member = member.entry;
    launch.where = "local";
    launch.options = options.base;
    return launch;
}

WorkerLaunch remote_launch(const PoolMember& member, const PoolOptions& options, RemoteTarget target) {
    WorkerLaunch launch = local_launch(member, options);
    launch.where = target.label;
    launch.options.remote = std::move(target);
    return launch;
}

std::string where_it_runs(const WorkerLaunch& launch, const WorkerClient& client, const std::string& job) {
    if (!launch.slurm) return launch.where;
    const std::string node = client.remote_status().host.empty() ? "a Slurm node" : client.remote_status().host;
    if (!launch.slurm->allocation.empty()) return node + " (a step of Slurm job " + launch.slurm->allocation + ")";
    return node + (job.empty() ? " (Slurm)" : " (Slurm job " + job + ")");
}

std::string failure_message(const WorkerLaunch& launch, const std::optional<WorkerResult>& answer, double timeout_s,
                            const std::string& job, const std::optional<SlurmJobState>& state) {
    const std::string waited = short_number(timeout_s) + " s";
    if (!job.empty() && state && state->state == "PENDING")
        return "Slurm did not start job " + job + " within " + waited + " (squeue's reason: " + state->reason +
               "); srun was stopped and the job cancelled";
    if (answer) return answer->failure_message + (job.empty() ? "" : " (Slurm job " + job + " was cancelled)");
    if (!job.empty())
        return "Slurm job " + job + " started but its worker did not answer within " + waited +
               "; srun was stopped and the job cancelled";
    if (launch.slurm && !launch.slurm->allocation.empty())
        return "no step of Slurm job " + launch.slurm->allocation + " started within " + waited +
               " (are the allocation's GPUs or CPUs all taken by other steps?); srun was stopped";
    if (launch.slurm)
        return "srun made no job within " + waited + " (squeue lists none called " + launch.slurm->job_name +
               "); srun was stopped";
    if (launch.options.remote)
        return "no answer from " + launch.where + " within " + waited + "; `" + launch.options.remote->try_command +
               "` was stopped";
    return "the local kplay-worker did not answer within " + waited + " and was stopped";
}

}  // namespace

std::vector<WorkerLaunch> launches_of(const PoolMember& member, const PoolOptions& options, int& slurm_number) {
    const std::string worker = options.remote_worker.empty() ? remote_worker_path() : options.remote_worker;
    std::vector<WorkerLaunch> launches;
    switch (member.kind) {
        case PoolMemberKind::local_gpus:
            launches.push_back(local_launch(member, options));
            launches.back().every_gpu = true;
            break;
        case PoolMemberKind::local_shared:
            launches.assign(member.count, local_launch(member, options));
            break;
        case PoolMemberKind::ssh:
            launches.push_back(remote_launch(member, options, ssh_target(member.host, worker)));
            break;
        case PoolMemberKind::command:
            launches.push_back(remote_launch(member, options, command_target(member.command)));
            break;
        case PoolMemberKind::slurm:
            for (int i = 0; i < member.count; ++i) {
                const SlurmPlacement placement = slurm_placement(member.partition, slurm_number++);
                launches.push_back(remote_launch(member, options, slurm_target(placement, worker)));
                launches.back().slurm = placement;
            }
            break;
    }
    return launches;
}

std::vector<WorkerLaunch> pinned_launches(const WorkerLaunch& local, size_t gpus) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::vector<std::string> users = visible ? split_list(visible) : std::vector<std::string>{};
    std::vector<WorkerLaunch> launches;
    for (size_t i = 0; i < gpus; ++i) {
        const std::string gpu = i < users.size() ? users[i] : std::to_string(i);
        WorkerLaunch launch = local;
        launch.every_gpu = false;
        launch.where = "local GPU " + gpu;
        launch.options.extra_environment.push_back("CUDA_VISIBLE_DEVICES=" + gpu);
        launches.push_back(std::move(launch));
    }
    return launches;
}

StartingWorker begin_start(WorkerLaunch launch, double timeout_s) {
    StartingWorker starting;
    starting.client = std::make_unique<WorkerClient>(launch.options);
    starting.launch = std::move(launch);
    starting.timeout_s = timeout_s;
    starting.until =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
    // The first answer waits for the connection too (ssh's login, Slurm's allocation): it is under the
    // pool's limit, not a compile's (advance_start sets the limits back).
    const WorkerOptions& limits = starting.client->options();
    starting.client->set_timeouts(limits.run_timeout_s, std::max(limits.compile_timeout_s, timeout_s + 1),
                                  limits.cpu_timeout_s);
    starting.request = starting.client->submit_devices();  // the first advance_start starts the process
    return starting;
}

std::optional<WorkerStart> advance_start(StartingWorker& starting) {
    std::optional<WorkerResult> answer;
    while (auto result = starting.client->poll())
        if (result->id == starting.request) {
            answer = std::move(result);
            break;
        }
    if (!answer && Clock::now() < starting.until) return std::nullopt;
    const WorkerLaunch& launch = starting.launch;
    const WorkerOptions& limits = launch.options;
    starting.client->set_timeouts(limits.run_timeout_s, limits.compile_timeout_s, limits.cpu_timeout_s);
    WorkerStart outcome;
    outcome.member = launch.member;
    outcome.where = launch.where;
    const bool own_job = launch.slurm && launch.slurm->allocation.empty();
    if (answer && answer->ok()) {
        outcome.failure = unusable_reason(answer->devices);
        if (!outcome.failure.empty()) {
            starting.client.reset();  // its worker goes with it
            return outcome;
        }
        outcome.devices = answer->devices;
        if (own_job) outcome.slurm_job = slurm_job_named(launch.slurm->job_name);
        outcome.where = where_it_runs(launch, *starting.client, outcome.slurm_job);
        outcome.client = std::move(starting.client);
        return outcome;
    }
    // Why Slurm has not started the job is read while srun still waits for it; then srun is stopped
    // (a killed srun leaves its pending job behind) and the job cancelled.
    const std::string job = own_job ? slurm_job_named(launch.slurm->job_name) : "";
    const std::optional<SlurmJobState> state = job.empty() ? std::nullopt : slurm_job_state(job);
    starting.client.reset();
    if (!job.empty()) slurm_cancel({job}, 10);
    outcome.failure = failure_message(launch, answer, starting.timeout_s, job, state);
    return outcome;
}

}  // namespace kplay
