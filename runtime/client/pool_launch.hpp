// One worker of a pool on its way up: the launch made from a pool member (how to start it, and how
// messages name it), and starting it under a deadline: the devices it answers with, or why it did not
// come up, in words (ssh's own, Slurm's reason for a job that never started, the hello of another
// protocol version).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/pool_spec.hpp"
#include "client/slurm_target.hpp"
#include "client/worker_client.hpp"

namespace kplay {

struct PoolOptions {
    WorkerOptions base;           // every worker's limits, and the local workers' program
    std::string remote_worker;    // kplay-worker's path for ssh and Slurm; empty: remote_worker_path()
    double start_timeout_s = 60;  // a worker that has not answered by then is stopped and reported
    // Once set, every start not yet over ends as at its deadline (srun stopped, its job cancelled): the
    // window closing while a pool comes up. Null: never.
    std::shared_ptr<std::atomic<bool>> cancel;
};

struct WorkerLaunch {
    std::string member;  // the pool entry it comes from
    std::string where;   // "local", "local GPU 1", "gpu-box": where it runs, as far as known before it starts
    WorkerOptions options;
    std::optional<SlurmPlacement> slurm;
    bool every_gpu = false;  // `local`: once it has answered, a worker pinned to each GPU takes its place
};

// A member's launches (a Slurm member's are numbered from `slurm_number` on, which moves past them).
// `local` is one launch until it has said how many GPUs there are.
std::vector<WorkerLaunch> launches_of(const PoolMember& member, const PoolOptions& options, int& slurm_number);

// `local`'s launches once it found `gpus` GPUs (more than one): each pinned with CUDA_VISIBLE_DEVICES
// to one of them, counted inside the user's own CUDA_VISIBLE_DEVICES when that is set.
std::vector<WorkerLaunch> pinned_launches(const WorkerLaunch& local, size_t gpus);

// How a worker's start went.
struct WorkerStart {
    std::string member, where;
    std::unique_ptr<WorkerClient> client;  // the worker, up and answering; null when it did not come up
    DeviceQuery devices;                   // what it answered
    std::string failure;                   // why it did not come up, for the user
    std::string slurm_job;                 // a job Slurm made for it alone (not a step), to cancel at the end
    bool came_up() const { return client != nullptr; }
};

// A worker on its way up: its client, asked for its devices, and the deadline of the answer.
struct StartingWorker {
    WorkerLaunch launch;
    std::unique_ptr<WorkerClient> client;
    uint64_t request = 0;
    double timeout_s = 0;
    std::chrono::steady_clock::time_point until{};
};

// Starts the worker's process (or the command that reaches it) and asks for its devices; returns at
// once. On the caller's thread, which must outlive the worker: a local worker dies with the thread
// that started it (its PR_SET_PDEATHSIG follows the thread, not the process).
StartingWorker begin_start(WorkerLaunch launch, double timeout_s);

// Without blocking, until it is over: then how the start went, once the worker answered or failed, or
// the deadline passed. A Slurm job that has not started by then is cancelled (srun stopped, then
// `scancel`, waiting until squeue no longer lists it), and the message says squeue's reason.
std::optional<WorkerStart> advance_start(StartingWorker& starting);

}  // namespace kplay
