// Starting a pool's workers side by side, grouping those that came up, and stopping them all.
#include "client/worker_pool.hpp"

#include <mutex>
#include <system_error>
#include <thread>

namespace kplay {

namespace {

std::vector<LaunchOutcome> start_all(const std::vector<WorkerLaunch>& launches, double timeout_s);

// One launch; for `local` on a machine of several GPUs, the pinned workers that take the place of the
// one that counted them.
std::vector<LaunchOutcome> bring_up(const WorkerLaunch& launch, double timeout_s) {
    std::vector<LaunchOutcome> outcomes;
    try {
        outcomes.push_back(start_launch(launch, timeout_s));
        const size_t gpus = outcomes.front().devices.devices.size();
        if (!launch.every_gpu || !outcomes.front().came_up() || gpus <= 1) return outcomes;
        outcomes.clear();  // its worker sees every GPU: it goes
        return start_all(pinned_launches(launch, gpus), timeout_s);
    } catch (const std::exception& error) {  // memory or threads ran out
        LaunchOutcome failed;
        failed.member = launch.member;
        failed.where = launch.where;
        failed.failure = std::string("it could not be started: ") + error.what();
        outcomes.clear();
        outcomes.push_back(std::move(failed));
        return outcomes;
    }
}

// Every launch at once, each on a thread of its own: a start is mostly waiting (a login, an allocation,
// a worker's own start), so the slowest one sets the time, not their sum.
std::vector<LaunchOutcome> start_all(const std::vector<WorkerLaunch>& launches, double timeout_s) {
    std::vector<std::vector<LaunchOutcome>> started(launches.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < launches.size(); ++i) {
        try {
            threads.emplace_back([&started, &launches, i, timeout_s] { started[i] = bring_up(launches[i], timeout_s); });
        } catch (const std::system_error&) {
            started[i] = bring_up(launches[i], timeout_s);  // no thread to be had: this one waits its turn
        }
    }
    for (std::thread& thread : threads) thread.join();
    std::vector<LaunchOutcome> outcomes;
    for (auto& each : started)
        for (auto& outcome : each) outcomes.push_back(std::move(outcome));
    return outcomes;
}

// Slurm job names are numbered across the process's pools, so that no two of its workers share one.
std::vector<WorkerLaunch> launches_of_all(const std::vector<PoolMember>& members, const PoolOptions& options) {
    static std::mutex numbering;
    static int next_number = 1;
    const std::lock_guard<std::mutex> lock(numbering);
    std::vector<WorkerLaunch> launches;
    for (const PoolMember& member : members)
        for (WorkerLaunch& launch : launches_of(member, options, next_number)) launches.push_back(std::move(launch));
    return launches;
}

}  // namespace

WorkerPool WorkerPool::start(const std::vector<PoolMember>& members, const PoolOptions& options) {
    // The launches are made here, on the caller's thread: ssh_target reads the environment.
    std::vector<LaunchOutcome> outcomes = start_all(launches_of_all(members, options), options.start_timeout_s);
    WorkerPool pool;
    std::vector<WorkerDevice> devices;
    for (LaunchOutcome& outcome : outcomes) {
        if (!outcome.slurm_job.empty()) pool.slurm_jobs_.push_back(outcome.slurm_job);
        if (!outcome.came_up()) {
            pool.failures_.push_back({outcome.member, outcome.failure});
            continue;
        }
        devices.push_back(device_of(outcome.devices));
        pool.workers_.push_back({outcome.member, outcome.where, devices.back(), std::move(outcome.client)});
    }
    pool.groups_ = group_by_device(devices);
    return pool;
}

WorkerPool::~WorkerPool() { stop(); }

WorkerPool::WorkerPool(WorkerPool&& other) noexcept
    : workers_(std::move(other.workers_)),
      groups_(std::move(other.groups_)),
      failures_(std::move(other.failures_)),
      slurm_jobs_(std::move(other.slurm_jobs_)) {
    other.workers_.clear();
    other.slurm_jobs_.clear();
}

WorkerPool& WorkerPool::operator=(WorkerPool&& other) noexcept {
    if (this != &other) {
        stop();
        workers_ = std::move(other.workers_);
        groups_ = std::move(other.groups_);
        failures_ = std::move(other.failures_);
        slurm_jobs_ = std::move(other.slurm_jobs_);
        other.workers_.clear();
        other.slurm_jobs_.clear();
    }
    return *this;
}

void WorkerPool::stop() noexcept {
    // Each client's link closes its worker's stdin and waits a moment for it to end, then kills it; a
    // Slurm worker's job ends with its srun, unless srun had to be killed: then scancel ends it.
    workers_.clear();
    groups_.clear();
    failures_.clear();
    slurm_cancel(slurm_jobs_, 0);
    slurm_jobs_.clear();
}

}  // namespace kplay
