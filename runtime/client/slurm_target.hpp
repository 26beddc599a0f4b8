// A worker that Slurm places: the srun command whose stdin and stdout carry the protocol, and what is
// asked of Slurm when the worker does not start (which job, why it waits) or when the pool goes (cancel
// what is left). kplay reaches Slurm only through its commands: srun, squeue and scancel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/remote_target.hpp"

namespace kplay {

struct SlurmPlacement {
    std::string partition;   // empty: the allocation's, or the cluster's default partition
    std::string allocation;  // the user's job ($SLURM_JOB_ID) the worker is a step of; empty: a job of its own
    std::string job_name;    // kplay-worker-<pid>-<n>: how squeue finds a job of its own
};

// The placement of this process's `number`-th Slurm worker. Inside an allocation ($SLURM_JOB_ID set),
// a worker without a partition is a step of it (the GPUs the user was given); a partition asks for a
// job of its own there too.
SlurmPlacement slurm_placement(const std::string& partition, int number);

// `srun [-p PARTITION] --nodes=1 --ntasks=1 --gres=gpu:1 --quiet --unbuffered --job-name=NAME WORKER
// --stdio`; a step adds `--jobid=ID --exact` (only the one task's share of the allocation, so that the
// next worker's step can start beside it). A relative `worker` is taken from the home folder, as over ssh:
// a Slurm task starts in srun's folder, not in the home.
RemoteTarget slurm_target(const SlurmPlacement& placement, const std::string& worker);

// The id of this user's job called `job_name` that squeue lists; empty when it lists none.
std::string slurm_job_named(const std::string& job_name);

// A job as squeue sees it: its state (PENDING, RUNNING ...) and the reason it is in it
// (PartitionDown, Resources, Priority ...); nullopt when squeue no longer lists it.
struct SlurmJobState {
    std::string state, reason;
};
std::optional<SlurmJobState> slurm_job_state(const std::string& job);

// scancel of `jobs`, then up to `wait_s` until squeue lists none of them. Never throws.
void slurm_cancel(const std::vector<std::string>& jobs, double wait_s) noexcept;

}  // namespace kplay
